export const CORE_JS_SHIM_SOURCE: string;
export const coreJsShim: { name: string; setup(build: unknown): void };
