// The Webex SDK imports all of core-js (~117 KB gzip) to use one thing from it: `Promise`
// (application.js: `require("core-js").Promise`). Every host it runs in has a native Promise,
// so every core-js import resolves to this module instead. It must keep core-js's export shape
// ({ Promise }): exporting the constructor itself leaves `.Promise` undefined, which only breaks
// inside a real Webex host, where the SDK's initialize handshake runs.

export const CORE_JS_SHIM_SOURCE = 'module.exports = { Promise: globalThis.Promise };';

/** esbuild plugin for the webex entry. */
export const coreJsShim = {
  name: 'core-js-shim',
  setup(build) {
    build.onResolve({ filter: /^core-js(\/|$)/ }, (a) => ({ path: a.path, namespace: 'core-js-shim' }));
    build.onLoad({ filter: /.*/, namespace: 'core-js-shim' }, () => ({ contents: CORE_JS_SHIM_SOURCE, loader: 'js' }));
  },
};
