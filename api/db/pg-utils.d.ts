// node-postgres's own conversion of a JavaScript value to a parameter's text (pg has no types
// for this file); pipelines bind values exactly as pg's queries do.
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): unknown;
}
