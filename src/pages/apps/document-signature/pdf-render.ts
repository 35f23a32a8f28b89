import type { PDFDocumentProxy } from 'pdfjs-dist';

// pdf.js, for the field editor only. It is not bundled: build.mjs copies pdf.js's own files
// to vendor/pdfjs/ beside the console, and this page imports them when it opens, so nothing of
// pdf.js (nor the helpers a bundler would add for it) reaches the console's entry. Its worker
// is a real module worker from the same folder.

type PdfJs = typeof import('pdfjs-dist');
let loaded: Promise<PdfJs> | null = null;

function pdfjs(): Promise<PdfJs> {
  loaded ??= (async () => {
    const base = new URL('../vendor/pdfjs/', import.meta.url);
    const lib = (await import(/* runtime URL */ new URL('pdf.min.js', base).href)) as PdfJs;
    lib.GlobalWorkerOptions.workerSrc = new URL('pdf.worker.min.js', base).href;
    return lib;
  })();
  return loaded;
}

export async function openPdf(url: string): Promise<PDFDocumentProxy> {
  return (await pdfjs()).getDocument({ url, isEvalSupported: false }).promise;
}

/** Draws page `index` (0-based) into `canvas`, `cssWidth` pixels wide on screen. */
export async function renderPage(
  doc: PDFDocumentProxy,
  index: number,
  canvas: HTMLCanvasElement,
  cssWidth: number,
): Promise<void> {
  const page = await doc.getPage(index + 1);
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: (cssWidth / base.width) * (window.devicePixelRatio || 1) });
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  await page.render({ canvas, viewport }).promise;
}

/** A page as a JPEG data URL, for the customer page (rendered once, at publish). */
export async function pageJpeg(doc: PDFDocumentProxy, index: number, width = 1000): Promise<string> {
  const page = await doc.getPage(index + 1);
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: width / base.width });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas, viewport }).promise;
  return canvas.toDataURL('image/jpeg', 0.8);
}
