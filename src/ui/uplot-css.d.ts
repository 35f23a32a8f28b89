// uPlot's stylesheet, imported as text by the lazily loaded Chart (esbuild `with { type: 'text' }`)
// and injected once, so the console's first load carries none of it.
declare module 'uplot/dist/uPlot.min.css' {
  const css: string;
  export default css;
}
