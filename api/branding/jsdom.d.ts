// The one part of jsdom's API the SVG sanitiser uses (@types/jsdom has no release for jsdom 29).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: Window & typeof globalThis;
  }
}
