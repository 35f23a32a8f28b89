import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A plain PDF made on the spot: `pages` pages of US Letter with a line of text each. */
export async function makePdf(pages = 2, title = 'Service agreement', useObjectStreams = true): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title}, page ${i + 1}`, { x: 50, y: 720, size: 20, font });
    page.drawText('The customer agrees to the terms set out in this agreement.', { x: 50, y: 680, size: 12, font });
  }
  return doc.save({ useObjectStreams });
}

/**
 * A PDF whose trailer names an encryption dictionary, as a password-protected file does
 * (pdf-lib cannot write encrypted files; the dictionary is what readers and we look for).
 */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const plain = Buffer.from(await makePdf(1, 'Secret', false)).toString('latin1');
  const encrypted = plain.replace(
    /trailer\s*<</,
    'trailer\n<<\n/Encrypt << /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 /O <00> /U <00> >>',
  );
  return Buffer.from(encrypted, 'latin1');
}
