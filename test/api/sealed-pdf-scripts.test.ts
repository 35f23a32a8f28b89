import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { pdfText, pdfsig } from '../support/pades';
import { ADMIN, freshPhone, lastLink, page, publishedDocument, signatureTrial, v1 } from '../support/signature-flow';
import { sealRequest } from '../../api/apps/document-signature/service';
import { certificateLine } from '../../api/customer-pages/certificate-text';
import { translate } from '../../api/customer-pages/i18n/index';
import type { Locale } from '../../api/contract/locales';
import type { SigDocument, SigRequest } from '../../api/contract/apps/document-signature';

// Names in any script in the sealed PDF, and its certificate of completion in the signer's
// language with English beside it. Read back by poppler's pdftotext (the text a reader copies
// and a search finds) and pdffonts (which fonts are embedded, subsetted), and the seal still
// checked by pdfsig.

/** pdffonts' table: one row per font, with its name, type, embedded and subset columns. */
const pdfFonts = (pdf: Buffer) => execFileSync('pdffonts', ['-'], { input: pdf, encoding: 'utf8' });
/** pdftotext keeps each line's words; spaces and line breaks vary, so compare without them. */
const squeeze = (s: string) => s.replace(/\s+/g, '');

describe.each(DATABASE_KINDS)('Sealed PDFs in any script (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  let doc: SigDocument;
  beforeAll(async () => {
    key = await signatureTrial(t);
    doc = await publishedDocument(t);
  });

  /** Sent in `locale` to `name`, who fills in and types their name in it and signs; sealed; the sealed bytes. */
  async function sealedFor(locale: Locale, name: string, typed = name): Promise<{ pdf: Buffer; request: SigRequest }> {
    const phone = freshPhone();
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: name, locale })
    ).json()) as SigRequest;
    const signed = await page(t, await lastLink(t, phone), {
      action: 'sign',
      sig_typed_sig1: typed,
      field_name1: name,
      field_ok1: 'on',
      consent: 'on',
    });
    expect(signed.status).toBe(200);
    const request = await sealRequest(t.deps, t.account('acme').id, sent.id);
    expect(request.status).toBe('completed');
    const files = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string;
    };
    return { pdf: Buffer.from(await (await t.app.request(files.signedUrl)).arrayBuffer()), request };
  }

  it('an Arabic signer: the name stamped and on the certificate in Arabic letters, the certificate in Arabic with English beside it, the seal valid', async () => {
    const name = 'ليلى حداد';
    const { pdf } = await sealedFor('ar', name);
    if (process.env.KEEP_PDF) (await import('node:fs')).writeFileSync('/tmp/sealed-ar.pdf', pdf);
    const text = pdfText(pdf);
    // shaped and ordered: the copied text is the name as typed, not isolated letters backwards
    expect(squeeze(text)).toContain(squeeze(name));
    expect(text).not.toContain('????');
    expect(squeeze(text)).toContain(squeeze(translate('ar', 'cert.title')));
    expect(text).toContain('Certificate of completion');
    expect(squeeze(text)).toContain(squeeze(translate('ar', 'cert.integrity')));
    // the consent as the signer read it, in Arabic (pdftotext orders the clauses on either side
    // of an Arabic comma as it likes, so each clause is looked for on its own)
    for (const clause of translate('ar', 'sig.consent').replace(/\.$/, '').split('،'))
      expect(squeeze(text)).toContain(squeeze(clause));
    expect(text).toContain('I agree that my electronic signature');
    // a bracket drawn mirrored in Arabic (its shape opens the other way) copies as the one the
    // line has: "(الإصدار" ("(version"), not ")الإصدار"
    expect(text).toContain('(الإصدار');
    expect(text).not.toContain(')الإصدار');
    const fonts = pdfFonts(pdf);
    // embedded and subsetted (a six-letter tag before the name), not the 200 KB font whole
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansArabic-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSans-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(pdf.length).toBeLessThan(300_000);
    expect(pdfsig(pdf)).toContain('Signature Validation: Signature is Valid.');
  });

  it('a Japanese signer: the name and the certificate in Japanese with English beside it, in a subset of Noto Sans JP; the seal valid', async () => {
    const name = '山田 花子';
    const { pdf } = await sealedFor('ja', name);
    if (process.env.KEEP_PDF) (await import('node:fs')).writeFileSync('/tmp/sealed-ja.pdf', pdf);
    const text = pdfText(pdf);
    expect(squeeze(text)).toContain(squeeze(name));
    expect(squeeze(text)).toContain(squeeze(certificateLine('ja', 'cert.title')));
    expect(squeeze(text)).toContain(squeeze(certificateLine('ja', 'cert.name', { name })));
    expect(squeeze(text)).toContain(squeeze(translate('ja', 'cert.validWhile')));
    const fonts = pdfFonts(pdf);
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansJP-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansJP-Bold\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    // a few kanji add kilobytes, not the 5 MB font
    expect(pdf.length).toBeLessThan(300_000);
    expect(pdfsig(pdf)).toContain('Signature Validation: Signature is Valid.');
  });

  it('an English signer keeps an English certificate, and a Latin typed signature its script face', async () => {
    const { pdf } = await sealedFor('en', 'Grace Hopper');
    const text = pdfText(pdf);
    expect(text).toContain('Certificate of completion');
    expect(text).not.toContain(' / Certificate of completion');
    expect(pdfFonts(pdf)).toContain('Times-Italic');
    expect(pdfsig(pdf)).toContain('Signature Validation: Signature is Valid.');
  });
});
