import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';

// PAdES B-LT: the validation data a verifier needs years later (the certificates, and the CRLs
// or OCSP answers where the chain publishes them) in a Document Security Store, added AFTER the
// signature as an incremental update: new objects, a new catalog that points at /DSS, and an
// xref section whose /Prev is the signed revision's. The signed bytes are not touched, so the
// signature still verifies; a reader sees one more revision that only adds the DSS.
//
// A seal adds it only with a document time-stamp in the same revision (appendLtv: PAdES B-LTA;
// the DSS is ETSI EN 319 142-1 clause 5.4, the levels clause 6, the DocTimeStamp ISO 32000-2
// 12.8.5), so the last revision is signed as a whole and no unsigned update follows a seal: any
// other later change leaves the file no longer wholly covered.

export type ValidationData = { certs: Buffer[]; crls: Buffer[]; ocsps: Buffer[] };

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export async function appendDss(pdf: Buffer, data: ValidationData): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { objects, catalog, Root } = dssObjects(doc, data);
  objects.push({ num: Root.objectNumber, gen: Root.generationNumber, body: Buffer.from(catalog.toString(), 'latin1') });
  return appendRevision(pdf, doc, objects);
}

/** The room left for the document time-stamp token (bytes): the token with the TSA's chain. */
export const DOC_TIMESTAMP_BYTES = 12_288;
const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 ********** ********** **********]';

/**
 * The DSS and a document time-stamp field in one incremental update (PAdES B-LTA): the DSS, the
 * catalog pointing at it, a /DocTimeStamp signature dictionary (ETSI.RFC3161) whose /ByteRange
 * is filled in here and whose /Contents is left as zeros for the token, its invisible field on
 * the first page, and the form listing it. The token is asked for on the server's thread
 * (fillDocTimestamp) over the byte range.
 */
export async function appendLtv(pdf: Buffer, data: ValidationData): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { objects, catalog, Root, next } = dssObjects(doc, data);
  let num = next;
  const sigNum = num++;
  const fieldNum = num++;
  const page = doc.getPages()[0]!;
  objects.push({
    num: sigNum,
    gen: 0,
    body: Buffer.from(
      `<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ${BYTE_RANGE_PLACEHOLDER} /Contents <${'0'.repeat(DOC_TIMESTAMP_BYTES * 2)}> >>`,
      'latin1',
    ),
  });
  objects.push({
    num: fieldNum,
    gen: 0,
    body: Buffer.from(
      `<< /Type /Annot /Subtype /Widget /FT /Sig /T (DocumentTimeStamp) /V ${sigNum} 0 R /Rect [0 0 0 0] /F 132 /P ${page.ref.toString()} >>`,
      'latin1',
    ),
  });
  // the first page lists the field among its annotations (a new version of that page object)
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray) ?? doc.context.obj([]);
  annots.push(PDFRef.of(fieldNum));
  page.node.set(PDFName.of('Annots'), annots);
  objects.push({ num: page.ref.objectNumber, gen: page.ref.generationNumber, body: Buffer.from(page.node.toString(), 'latin1') });
  // the form lists it among its fields (the form is its own object, or inside the catalog)
  const formRef = catalog.get(PDFName.of('AcroForm'));
  const form = doc.context.lookup(formRef, PDFDict);
  const fields = form.lookup(PDFName.of('Fields'), PDFArray);
  fields.push(PDFRef.of(fieldNum));
  if (formRef instanceof PDFRef)
    objects.push({ num: formRef.objectNumber, gen: formRef.generationNumber, body: Buffer.from(form.toString(), 'latin1') });
  objects.push({ num: Root.objectNumber, gen: Root.generationNumber, body: Buffer.from(catalog.toString(), 'latin1') });
  const out = appendRevision(pdf, doc, objects);
  // the byte range: everything but the token's hex string (its < and > included in neither side)
  const contentsAt = out.lastIndexOf(`/Contents <${'0'.repeat(64)}`) + '/Contents '.length;
  const after = contentsAt + DOC_TIMESTAMP_BYTES * 2 + 2;
  const range = `/ByteRange [0 ${contentsAt} ${after} ${out.length - after}]`;
  const rangeAt = out.lastIndexOf(BYTE_RANGE_PLACEHOLDER);
  if (rangeAt < pdf.length || contentsAt < pdf.length || range.length > BYTE_RANGE_PLACEHOLDER.length)
    throw new Error('The document time-stamp placeholder was not written where expected.');
  out.write(range.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), rangeAt, 'latin1');
  return out;
}

/** The byte range of the last signature (the document time-stamp's): the bytes its token covers. */
export function lastByteRange(pdf: Buffer): { covered: Buffer; contentsAt: number; room: number } {
  const all = [...pdf.toString('latin1').matchAll(/\/ByteRange \[0 (\d+) (\d+) (\d+)\s*\]/g)];
  const m = all.at(-1);
  if (!m) throw new Error('No byte range to time-stamp.');
  const [b, c, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (c + d !== pdf.length || pdf[b] !== 0x3c || pdf[c - 1] !== 0x3e)
    throw new Error('The byte range does not cover the file but its /Contents.');
  return { covered: Buffer.concat([pdf.subarray(0, b), pdf.subarray(c)]), contentsAt: b, room: (c - b - 2) / 2 };
}

/** Writes the time-stamp token into the room appendLtv left (hex, the rest stays zeros). */
export function fillDocTimestamp(pdf: Buffer, token: Buffer): Buffer {
  const { contentsAt, room } = lastByteRange(pdf);
  if (token.length > room)
    throw new Error(`The document time-stamp token (${token.length} bytes) does not fit its room (${room}).`);
  const out = Buffer.from(pdf);
  out.write(token.toString('hex'), contentsAt + 1, 'latin1');
  return out;
}

function dssObjects(
  doc: PDFDocument,
  data: ValidationData,
): { objects: RevisionObject[]; catalog: PDFDict; Root: PDFRef; next: number } {
  const { Root } = doc.context.trailerInfo;
  if (!(Root instanceof PDFRef)) throw new Error('The sealed PDF has no catalog reference.');
  let next = doc.context.largestObjectNumber + 1;
  const objects: RevisionObject[] = [];
  const streams = (list: Buffer[]) =>
    list.map((bytes) => {
      const num = next++;
      objects.push({
        num,
        gen: 0,
        body: Buffer.concat([Buffer.from(`<< /Length ${bytes.length} >>\nstream\n`), bytes, Buffer.from('\nendstream')]),
      });
      return `${num} 0 R`;
    });
  const certs = streams(data.certs);
  const crls = streams(data.crls);
  const ocsps = streams(data.ocsps);
  const dssNum = next++;
  const entries = [
    `/Certs [${certs.join(' ')}]`,
    crls.length ? `/CRLs [${crls.join(' ')}]` : '',
    ocsps.length ? `/OCSPs [${ocsps.join(' ')}]` : '',
  ].filter(Boolean);
  objects.push({ num: dssNum, gen: 0, body: Buffer.from(`<< /Type /DSS ${entries.join(' ')} >>`) });
  // the catalog again, with the same number, now pointing at the DSS (written by the caller)
  const catalog = doc.context.lookup(Root, PDFDict);
  catalog.set(PDFName.of('DSS'), PDFRef.of(dssNum));
  return { objects, catalog, Root, next };
}

export type RevisionObject = { num: number; gen: number; body: Buffer };

/**
 * Appends an incremental update: the objects (new, or new versions of old ones), a classic
 * xref section for them and a trailer whose /Prev is the last revision's xref. `doc` is the
 * same file loaded by pdf-lib (for the trailer's /Root, /Info and /ID).
 */
export function appendRevision(pdf: Buffer, doc: PDFDocument, objects: RevisionObject[]): Buffer {
  const tail = pdf.subarray(Math.max(0, pdf.length - 1024)).toString('latin1');
  const prev = tail.match(/startxref\s+(\d+)\s+%%EOF\s*$/)?.[1];
  if (!prev) throw new Error('The PDF does not end with startxref.');
  const { Root, Info, ID } = doc.context.trailerInfo;
  const parts: Buffer[] = [pdf.at(-1) === 0x0a ? Buffer.alloc(0) : Buffer.from('\n')];
  let offset = pdf.length + parts[0]!.length;
  const entries = new Map<number, { offset: number; gen: number }>();
  for (const o of objects) {
    entries.set(o.num, { offset, gen: o.gen });
    const chunk = Buffer.concat([Buffer.from(`${o.num} ${o.gen} obj\n`), o.body, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    offset += chunk.length;
  }
  const nums = [...entries.keys()].sort((a, b) => a - b);
  let xref = 'xref\n0 1\n0000000000 65535 f\r\n';
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    xref += `${nums[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) {
      const e = entries.get(nums[k]!)!;
      xref += `${pad(e.offset, 10)} ${pad(e.gen, 5)} n\r\n`;
    }
    i = j + 1;
  }
  const size = Math.max(doc.context.largestObjectNumber, ...nums) + 1;
  const trailer = [
    `/Size ${size}`,
    Root ? `/Root ${Root.toString()}` : '',
    Info ? `/Info ${Info.toString()}` : '',
    ID ? `/ID ${ID.toString()}` : '',
    `/Prev ${prev}`,
  ]
    .filter(Boolean)
    .join(' ');
  parts.push(Buffer.from(`${xref}trailer\n<< ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat([pdf, ...parts]);
}
