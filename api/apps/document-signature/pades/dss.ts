import { PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';

// PAdES B-LT: the validation data a verifier needs years later (the certificates, and the CRLs
// or OCSP answers where the chain publishes them) in a Document Security Store, added AFTER the
// signature as an incremental update: new objects, a new catalog that points at /DSS, and an
// xref section whose /Prev is the signed revision's. The signed bytes are not touched, so the
// signature still verifies; a reader sees one more revision that only adds the DSS.

export type ValidationData = { certs: Buffer[]; crls: Buffer[]; ocsps: Buffer[] };

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export async function appendDss(pdf: Buffer, data: ValidationData): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { Root } = doc.context.trailerInfo;
  if (!(Root instanceof PDFRef)) throw new Error('The sealed PDF has no catalog reference.');
  let next = doc.context.largestObjectNumber + 1;
  const objects: RevisionObject[] = [];
  const streams = (list: Buffer[]) =>
    list.map((bytes) => {
      const num = next++;
      objects.push({ num, gen: 0, body: Buffer.concat([Buffer.from(`<< /Length ${bytes.length} >>\nstream\n`), bytes, Buffer.from('\nendstream')]) });
      return `${num} 0 R`;
    });
  const certs = streams(data.certs);
  const crls = streams(data.crls);
  const ocsps = streams(data.ocsps);
  const dssNum = next++;
  const entries = [`/Certs [${certs.join(' ')}]`, crls.length ? `/CRLs [${crls.join(' ')}]` : '', ocsps.length ? `/OCSPs [${ocsps.join(' ')}]` : ''].filter(Boolean);
  objects.push({ num: dssNum, gen: 0, body: Buffer.from(`<< /Type /DSS ${entries.join(' ')} >>`) });
  // the catalog again, with the same number, now pointing at the DSS
  const catalog = doc.context.lookup(Root, PDFDict);
  catalog.set(PDFName.of('DSS'), PDFRef.of(dssNum));
  objects.push({ num: Root.objectNumber, gen: Root.generationNumber, body: Buffer.from(catalog.toString(), 'latin1') });
  return appendRevision(pdf, doc, objects);
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
  const trailer = [`/Size ${size}`, Root ? `/Root ${Root.toString()}` : '', Info ? `/Info ${Info.toString()}` : '', ID ? `/ID ${ID.toString()}` : '', `/Prev ${prev}`].filter(Boolean).join(' ');
  parts.push(Buffer.from(`${xref}trailer\n<< ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat([pdf, ...parts]);
}
