import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PDFArray, type PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';

// PDFs made to hurt a reader, and the independent checks of what we keep: qpdf reads the stored
// or sealed file, not our code.

/** A PDF written byte by byte: objects 1..n in order, a classic xref and a trailer (/Root 1 0 R). */
export function rawPdf(objects: (string | Buffer)[], trailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof o === 'string' ? Buffer.from(o, 'latin1') : o,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${length}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';

/** One page and `n` more small objects: what the review's 8 MB, 150,000-object file was. */
export function manyObjects(n: number): Buffer {
  const objects: string[] = [CATALOG, PAGES, PAGE];
  for (let i = 0; i < n; i++) objects.push(`<< /Kind /Filler /Index ${i} /Values [1 2 3] /Note (padding) >>`);
  return rawPdf(objects);
}

/** An object stream whose few KB of deflate expand to `mb` megabytes (zeros): a decompression bomb. */
export function flateBomb(mb: number): Buffer {
  const deflated = zlib.deflateSync(Buffer.alloc(mb * 1024 * 1024), { level: 9 });
  const stream = Buffer.concat([
    Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${deflated.length} >>\nstream\n`),
    deflated,
    Buffer.from('\nendstream'),
  ]);
  return rawPdf([CATALOG, PAGES, PAGE, stream]);
}

/** Arrays nested `depth` deep in the catalog. */
export function deepNesting(depth: number): Buffer {
  return rawPdf([`<< /Type /Catalog /Pages 2 0 R /Deep ${'['.repeat(depth)}${']'.repeat(depth)} >>`, PAGES, PAGE]);
}

/** A page tree whose node is its own child: a reader that walks it never ends. */
export function cyclicPageTree(): Buffer {
  return rawPdf([CATALOG, '<< /Type /Pages /Kids [2 0 R] /Count 1 >>']);
}

/** References that loop outside the page tree (harmless: a reader follows them only on demand). */
export function cyclicReferences(): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /Loop 4 0 R >>',
    PAGES,
    PAGE,
    '<< /Next 5 0 R >>',
    '<< /Next 4 0 R /Self 5 0 R >>',
  ]);
}

/** The kinds of active content the tests plant, each with a sentinel text that must not survive. */
export const ACTIVE_CONTENT = ['open-action', 'javascript', 'launch', 'event-actions', 'embedded-files', 'links', 'xfa'] as const;
export type ActiveContentKind = (typeof ACTIVE_CONTENT)[number];

/** Text we plant inside the active content (a script, a path, an address, a file's bytes). */
export const SENTINELS: Record<ActiveContentKind, string> = {
  'open-action': 'openActionSentinel',
  javascript: 'namedScriptSentinel',
  launch: 'launch-sentinel.exe',
  'event-actions': 'pageOpenSentinel',
  'embedded-files': 'EMBEDDED-FILE-SENTINEL',
  links: 'https://link-sentinel.example/',
  xfa: 'XFA-SENTINEL',
};

/** A two-page agreement carrying these kinds of active content, plus a GoTo link and an outline that stay. */
export async function pdfWith(...kinds: ActiveContentKind[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = [doc.addPage([612, 792]), doc.addPage([612, 792])];
  pages.forEach((p, i) => p.drawText(`Hostile agreement, page ${i + 1}`, { x: 50, y: 720, size: 20, font }));
  const ctx = doc.context;
  const js = (code: string) => ctx.obj({ S: 'JavaScript', JS: PDFString.of(code) });
  const annots = (page: (typeof pages)[number]) => {
    let list = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!list) page.node.set(PDFName.of('Annots'), (list = ctx.obj([])));
    return list;
  };
  const link = (action: PDFDict) =>
    ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [50, 600, 300, 620], Border: [0, 0, 0], A: action }));
  // what stays: a link to page 2 and an outline entry to page 1
  annots(pages[0]!).push(link(ctx.obj({ S: 'GoTo', D: [pages[1]!.ref, 'Fit'] })));
  const outline = ctx.nextRef();
  const item = ctx.register(
    ctx.obj({ Title: PDFHexString.fromText('Page 1'), Parent: outline, A: ctx.obj({ S: 'GoTo', D: [pages[0]!.ref, 'Fit'] }) }),
  );
  ctx.assign(outline, ctx.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 }));
  doc.catalog.set(PDFName.of('Outlines'), outline);

  for (const kind of kinds) {
    const sentinel = SENTINELS[kind];
    if (kind === 'open-action') doc.catalog.set(PDFName.of('OpenAction'), js(`app.alert(1); ${sentinel}`));
    if (kind === 'javascript') {
      const script = ctx.register(js(sentinel));
      doc.catalog.set(PDFName.of('Names'), ctx.obj({ JavaScript: ctx.obj({ Names: [PDFString.of('init'), script] }) }));
    }
    if (kind === 'launch')
      annots(pages[0]!).push(
        link(ctx.obj({ S: 'Launch', F: PDFString.of(sentinel), Win: ctx.obj({ F: PDFString.of(sentinel) }) })),
      );
    if (kind === 'event-actions') {
      pages[1]!.node.set(PDFName.of('AA'), ctx.obj({ O: js(sentinel) }));
      doc.catalog.set(PDFName.of('AA'), ctx.obj({ WC: js(sentinel) }));
    }
    if (kind === 'embedded-files') {
      await doc.attach(Buffer.from(`${sentinel} in the Names tree`), 'invoice.exe', { mimeType: 'application/octet-stream' });
      const file = ctx.register(ctx.stream(Buffer.from(`${sentinel} on the page`), { Type: 'EmbeddedFile' }));
      const spec = ctx.obj({ Type: 'Filespec', F: PDFString.of('readme.exe'), EF: ctx.obj({ F: file }) });
      annots(pages[0]!).push(
        ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'FileAttachment', Rect: [50, 500, 70, 520], FS: spec })),
      );
    }
    if (kind === 'links') {
      annots(pages[0]!).push(link(ctx.obj({ S: 'URI', URI: PDFString.of(sentinel) })));
      // an action chain: a GoTo whose /Next opens a web address
      annots(pages[1]!).push(
        link(ctx.obj({ S: 'GoTo', D: [pages[0]!.ref, 'Fit'], Next: ctx.obj({ S: 'URI', URI: PDFString.of(sentinel) }) })),
      );
    }
    if (kind === 'xfa') {
      const xfa = ctx.register(ctx.stream(Buffer.from(`<xdp:xdp><script>${sentinel}</script></xdp:xdp>`)));
      doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [], XFA: xfa }));
    }
  }
  // object streams for some, plain objects for others: the cleaning reads both
  return doc.save({ useObjectStreams: kinds.length % 2 === 1 });
}

// ---------------------------------------------------------------- independent checks (qpdf)

const ACTIVE_KEYS = ['/OpenAction', '/AA', '/JS', '/JavaScript', '/EmbeddedFiles', '/EF', '/RF', '/AF', '/XFA'];
const ACTIVE_VALUES = [
  '/JavaScript',
  '/Launch',
  '/URI',
  '/SubmitForm',
  '/ImportData',
  '/GoToR',
  '/GoToE',
  '/FileAttachment',
  '/EmbeddedFile',
];

/** Runs a tool on the PDF written to a file (qpdf reads no standard input). */
function onFile<T>(pdf: Uint8Array, run: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qpdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, pdf);
    return run(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every active-content key or name qpdf finds in the file's objects (empty when clean). */
export function activeContentIn(pdf: Uint8Array): string[] {
  const out = onFile(pdf, (file) => qpdf(['--json=2', '--json-stream-data=none', file]));
  const json = JSON.parse(out) as { qpdf: [unknown, Record<string, unknown>] };
  const found = new Set<string>();
  const walk = (o: unknown) => {
    if (typeof o === 'string') {
      if (ACTIVE_VALUES.includes(o)) found.add(o);
    } else if (Array.isArray(o)) o.forEach(walk);
    else if (o && typeof o === 'object') {
      for (const [k, v] of Object.entries(o)) {
        if (ACTIVE_KEYS.includes(k)) found.add(k);
        walk(v);
      }
    }
  };
  walk(json.qpdf[1]);
  return [...found].sort();
}

/** qpdf, where exit 3 (warnings only) is success as well as 0. */
function qpdf(args: string[]): string {
  try {
    return execFileSync('qpdf', args, { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  } catch (err) {
    const e = err as { status: number; stdout: Buffer };
    if (e.status === 3) return e.stdout.toString('utf8');
    throw err;
  }
}

/** The file with every stream uncompressed, as text: what a search for a planted sentinel reads. */
export function uncompressedText(pdf: Uint8Array): string {
  return onFile(pdf, (file, dir) => {
    const output = path.join(dir, 'out.pdf');
    qpdf(['--qdf', '--object-streams=disable', '--stream-data=uncompress', file, output]);
    return fs.readFileSync(output).toString('latin1');
  });
}

/** qpdf's structural check of the file. */
export function qpdfCheck(pdf: Uint8Array): string {
  return onFile(pdf, (file) => qpdf(['--check', file]));
}
