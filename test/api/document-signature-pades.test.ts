import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { startTsaPeer, type TsaPeer } from '../support/tsa-peer';
import {
  lastSignature,
  opensslCmsPrint,
  opensslCmsVerify,
  opensslTsVerify,
  pdfText,
  pdfsig,
  pkijsVerifyDetached,
  pkijsVerifyTimestamp,
  signedParts,
} from '../support/pades';
import { ADMIN, publishedDocument, signaturesReady, signedRequest, v1 } from '../support/signature-flow';
import { sealRequest, sealSignedRequests } from '../../api/apps/document-signature/service';
import { appendRevision } from '../../api/apps/document-signature/pades/dss';
import type { Config } from '../../api/config';
import type { Deps } from '../../api/deps';
import type { SigDocument, SigRequest, SigSigning } from '../../api/contract/apps/document-signature';

// PAdES seals checked by tools that are not ours: poppler's pdfsig (with an NSS database that
// trusts the test CA), openssl cms and openssl ts, and pkijs, against a test PKI and a loopback
// RFC 3161 TSA (openssl ts -reply). One sealed PDF is shared by the checks that only read it.
//
// What Debian's poppler 22.12 says of a document time-stamp (the B-LTA seal's last signature,
// SubFilter ETSI.RFC3161): "Signature Type: unknown", "Signature has not yet been verified",
// "Unable to validate this type of signature"; but it does say whether that signature covers the
// total document. So its validity is checked with openssl ts and pkijs, and pdfsig is relied on
// only for what it reports: which signatures cover the whole file.

/** A later incremental update that draws on page 1: what a forger appends to a sealed file. */
async function forge(pdf: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const first = doc.getPages()[0]!;
  const font = [...first.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).keys()][0]!;
  const forged = Buffer.from(`BT ${font.toString()} 30 Tf 50 400 Td (FORGED AMOUNT 999) Tj ET`);
  const streamNum = doc.context.largestObjectNumber + 1;
  const contents = first.node.get(PDFName.of('Contents'))!;
  const list = contents instanceof PDFArray ? contents : doc.context.obj([contents]);
  list.push(PDFRef.of(streamNum));
  first.node.set(PDFName.of('Contents'), list);
  return appendRevision(pdf, doc, [
    {
      num: streamNum,
      gen: 0,
      body: Buffer.concat([Buffer.from(`<< /Length ${forged.length} >>\nstream\n`), forged, Buffer.from('\nendstream')]),
    },
    { num: first.ref.objectNumber, gen: first.ref.generationNumber, body: Buffer.from(first.node.toString(), 'latin1') },
  ]);
}

/** pdfsig's verdict per signature: whether each covers the total document. */
const coverage = (report: string) =>
  [...report.matchAll(/- (Total document signed|Not total document signed)/g)].map((m) => m[1]);

describe.each(DATABASE_KINDS)('PAdES seals (%s)', (kind) => {
  let tsa: TsaPeer;
  const raw: Record<string, string | undefined> = {};
  const overrides: Partial<Config> = { raw };
  beforeAll(async () => {
    tsa = await startTsaPeer();
    Object.assign(raw, {
      SIGNING_CERT_P12: tsa.pki.provider.p12File,
      SIGNING_CERT_PASSPHRASE: tsa.pki.provider.passphrase,
      SIGNING_TSA_URL: tsa.url,
      SIGNING_TSA_CA_FILE: tsa.pki.caFile,
      // no test here waits on a TSA that hangs (down is a refused connection), while a loaded
      // machine can take seconds to run `openssl ts -reply` for seals queued one after another:
      // a short timeout would turn a slow answer into a B-T seal where B-LTA is meant
      SIGNING_TSA_TIMEOUT_MS: '20000',
      SIGNING_TSA_GRACE_SECONDS: '600',
    });
    overrides.outboundAllowHosts = [tsa.host];
  });
  afterAll(async () => tsa?.close());
  const t = useTestContext(kind, overrides);

  let key: string;
  let doc: SigDocument;
  let sealed: Buffer;
  let request: SigRequest;
  const download = async (id: string) => {
    const files = (await (await t.call('GET', `/document-signature/signatures/${id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string;
    };
    return Buffer.from(await (await t.app.request(files.signedUrl)).arrayBuffer());
  };
  /** The server's dependencies, but sealing with the TSA at `url`. */
  const withTsa = (url: string): Deps => ({ ...t.deps, config: { ...t.config, raw: { ...raw, SIGNING_TSA_URL: url } } });
  /** These dependencies with a clock past the grace time, for the seal they make alone. */
  const pastGrace = (deps: Deps): Deps => ({ ...deps, now: () => new Date(t.clock.now.getTime() + 601_000) });
  /**
   * Signs, then has `seal` make the seal, with the server's TSA refusing every query until it is
   * made: the seal that starts right after signing cannot complete (within the grace time it
   * waits for the TSA), so the seal a test means to check is the one kept, whoever is faster,
   * and no second seal of the request competes with it for the TSA on a loaded machine.
   */
  const sealedApart = async <T>(signer: string, seal: (sent: SigRequest) => Promise<T>): Promise<T> => {
    const url = raw.SIGNING_TSA_URL;
    raw.SIGNING_TSA_URL = tsa.address(0);
    try {
      return await seal(await signedRequest(t, key, doc, signer));
    } finally {
      raw.SIGNING_TSA_URL = url;
    }
  };
  beforeAll(async () => {
    key = await signaturesReady(t);
    doc = await publishedDocument(t);
    request = await sealedApart('Grace Hopper', (sent) => sealRequest(withTsa(tsa.url), t.account('acme').id, sent.id));
    sealed = await download(request.id);
  });

  it('pdfsig reports an ETSI.CAdES.detached signature that is valid, by a certificate the test CA makes trusted', () => {
    expect(request).toMatchObject({ status: 'completed', sealLevel: 'B-LTA', sealedBy: 'Switchboard Provider Signing' });
    const report = pdfsig(sealed, tsa.pki.nssDir);
    // the seal, then the document time-stamp over the whole file (see the top of this file)
    expect(report).toMatch(
      /Signature #1:[\s\S]*Signature Field Name: Signature1[\s\S]*Signature #2:[\s\S]*Signature Field Name: DocumentTimeStamp/,
    );
    expect(coverage(report)).toEqual(['Not total document signed', 'Total document signed']);
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Certificate Validation: Certificate is Trusted.');
    expect(report).toContain('Signer Certificate Common Name: Switchboard Provider Signing');
    // without the CA in the database, the same file is valid but its signer unknown
    expect(pdfsig(sealed)).not.toContain('Certificate is Trusted');
  });

  it('openssl verifies the CMS over the byte range, which covers the whole file but /Contents', () => {
    const parts = signedParts(sealed);
    const [a, b, c, d] = parts.byteRange as [number, number, number, number];
    expect(a).toBe(0);
    // the signed revision ends where the byte range ends; only the DSS and document time-stamp update follows
    expect(c + d).toBe(parts.signedRevision.length);
    expect(sealed.subarray(a + b, c).toString('latin1')).toMatch(/^<[0-9a-f]+>$/);
    const verified = opensslCmsVerify(parts.cms, parts.signedBytes, tsa.pki.caFile);
    expect(verified.output).toContain('Verification successful');
    expect(verified.ok).toBe(true);
  });

  it('the signed attributes are content type, message digest and signingCertificateV2, with no signingTime; the time is /M', () => {
    const printed = opensslCmsPrint(signedParts(sealed).cms);
    // our signer's signed attributes (the timestamp token inside the unsigned ones has its own)
    const signedAttrs = printed.slice(printed.indexOf('signedAttrs:'), printed.indexOf('unsignedAttrs:'));
    expect(signedAttrs.match(/object: ([\w-]+)/g)).toEqual([
      'object: contentType',
      'object: messageDigest',
      'object: id-smime-aa-signingCertificateV2',
    ]);
    expect(signedAttrs).not.toContain('signingTime');
    expect(printed).toMatch(/digestAlgorithm:\s*\n\s*algorithm: sha256/);
    expect(printed).toContain('id-smime-aa-timeStampToken');
    expect(sealed.toString('latin1')).toMatch(/\/M \(D:\d{14}Z\)/);
  });

  it("the timestamp token verifies with openssl ts against the TSA's CA, over the signature value", () => {
    const parts = signedParts(sealed);
    expect(parts.timestampToken).not.toBeNull();
    const verified = opensslTsVerify(parts.timestampToken!, parts.signatureValue, tsa.pki.caFile);
    expect(verified.output).toContain('Verification: OK');
    // the same token does not vouch for other bytes
    expect(opensslTsVerify(parts.timestampToken!, Buffer.from('another signature'), tsa.pki.caFile).ok).toBe(false);
    expect(request.timestampedAt).not.toBeNull();
  });

  it('the certificate page, inside the signed bytes, shows the signature, the timeline and the trusted time', () => {
    const revisionText = pdfText(signedParts(sealed).signedRevision);
    expect(revisionText).toContain('Certificate of completion');
    expect(revisionText).toContain('Grace Hopper (typed)');
    // the timeline is in the account's time zone (Acme's owner is in London), named in the heading, to the second
    expect(revisionText).toMatch(/Events \(Europe\/London, (GMT|GMT\+1)\)[\s\S]*signed/);
    expect(revisionText).toMatch(/[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2}:\d{2}\s[AP]M/);
    expect(revisionText).toContain(`RFC 3161 timestamp from ${tsa.url}`);
    expect(revisionText).toContain('PAdES B-T');
    // no active content: no JavaScript, no actions run on opening
    expect(sealed.toString('latin1')).not.toMatch(/\/JavaScript|\/JS\s|\/OpenAction|\/Launch/);
  });

  it('one changed byte inside the signed range fails both pdfsig and openssl', () => {
    const at = sealed.indexOf('Certificate of completion');
    const tampered = Buffer.from(sealed);
    const where = at > 0 ? at : sealed.indexOf('/Producer') + 2;
    tampered[where] = tampered[where]! ^ 0x01;
    const report = pdfsig(tampered, tsa.pki.nssDir);
    expect(report).not.toContain('Signature is Valid');
    const parts = signedParts(tampered);
    expect(opensslCmsVerify(parts.cms, parts.signedBytes, tsa.pki.caFile).ok).toBe(false);
  });

  it('pkijs, an independent CMS verifier, verifies the seal and its chain to the test CA, and refuses other bytes', async () => {
    const parts = signedParts(sealed);
    const verified = await pkijsVerifyDetached(parts.cms, parts.signedBytes, tsa.pki.caFile);
    expect(verified).toMatchObject({ ok: true, signer: 'Switchboard Provider Signing' });
    const other = Buffer.from(parts.signedBytes);
    other[10] = other[10]! ^ 0x01;
    expect((await pkijsVerifyDetached(parts.cms, other, tsa.pki.caFile)).ok).toBe(false);
    const stamped = await pkijsVerifyTimestamp(parts.timestampToken!, parts.signatureValue, tsa.pki.caFile);
    expect(stamped.ok, stamped.message).toBe(true);
  });

  it('the seal is a certification signature: DocMDP with P=2 (form filling and signing, how PAdES adds its validation data), in the signed bytes', async () => {
    const revision = await PDFDocument.load(signedParts(sealed).signedRevision, { updateMetadata: false });
    const perms = revision.catalog.lookup(PDFName.of('Perms'), PDFDict);
    const sigRef = perms.get(PDFName.of('DocMDP'));
    expect(sigRef).toBeInstanceOf(PDFRef);
    const text = signedParts(sealed).signedRevision.toString('latin1');
    const at = text.indexOf(`\n${(sigRef as PDFRef).objectNumber} 0 obj`);
    const dict = text.slice(at, text.indexOf('endobj', at));
    expect(dict).toMatch(/\/SubFilter \/ETSI\.CAdES\.detached/);
    expect(dict).toMatch(
      /\/Reference \[<< \/Type \/SigRef \/TransformMethod \/DocMDP \/TransformParams << \/Type \/TransformParams \/P 2 \/V \/1\.2 >> >>\]/,
    );
  });

  it('B-LTA: the validation data and a document time-stamp over the whole file are one incremental update; openssl ts and pkijs verify the time-stamp', async () => {
    const parts = signedParts(sealed);
    expect(pdfsig(parts.signedRevision, tsa.pki.nssDir)).toContain('Total document signed');
    const after = sealed.subarray(parts.signedRevision.length).toString('latin1');
    expect(after).toContain('/Type /DSS');
    expect(after).toMatch(/\/Certs \[\d+ 0 R( \d+ 0 R){2,}\]/); // signer, TSA, root at least
    expect(after).toMatch(/\/CRLs \[\d+ 0 R/);
    expect(after).toContain('/Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161');
    const last = lastSignature(sealed);
    expect(last.subFilter).toBe('ETSI.RFC3161');
    const [a, b, c, d] = last.byteRange as [number, number, number, number];
    expect([a, c + d]).toEqual([0, sealed.length]);
    expect(b).toBeGreaterThan(parts.signedRevision.length);
    expect(opensslTsVerify(last.contents, last.covered, tsa.pki.caFile).output).toContain('Verification: OK');
    expect(await pkijsVerifyTimestamp(last.contents, last.covered, tsa.pki.caFile)).toMatchObject({ ok: true });
    // the time-stamp vouches for these bytes only
    expect(opensslTsVerify(last.contents, Buffer.concat([last.covered, Buffer.from(' ')]), tsa.pki.caFile).ok).toBe(false);
    expect(pdfsig(sealed, tsa.pki.nssDir)).toContain('Signature is Valid');
    const loaded = await PDFDocument.load(sealed);
    expect(loaded.catalog.get(PDFName.of('DSS'))).toBeInstanceOf(PDFRef);
  });

  it('an appended update that draws on page 1 no longer reads like the untouched file: the document time-stamp stops covering the document', async () => {
    const changed = await forge(sealed);
    expect(pdfText(changed)).toContain('FORGED AMOUNT 999');
    expect(coverage(pdfsig(sealed, tsa.pki.nssDir))).toEqual(['Not total document signed', 'Total document signed']);
    expect(coverage(pdfsig(changed, tsa.pki.nssDir))).toEqual(['Not total document signed', 'Not total document signed']);
    // what was signed is unchanged and still verifies: the change is outside it, and said so
    expect(pdfText(signedParts(changed).signedRevision)).not.toContain('FORGED');
    const last = lastSignature(changed);
    expect(last.subFilter).toBe('ETSI.RFC3161');
    expect(last.byteRange[2]! + last.byteRange[3]!).toBeLessThan(changed.length);
  });

  it('a B-T seal (the TSA answers, the revocation data cannot be had) ends with its signature; an appended forgery is then told apart', async () => {
    // before signing: the seal that starts right after it sees no CRL either
    tsa.crl = false;
    let done: SigRequest;
    try {
      done = await sealedApart('Frances Allen', (sent) => sealRequest(withTsa(tsa.url), t.account('acme').id, sent.id));
    } finally {
      tsa.crl = true;
    }
    expect(done).toMatchObject({ status: 'completed', sealLevel: 'B-T' });
    const pdf = await download(done.id);
    const parts = signedParts(pdf);
    expect(parts.signedRevision.length).toBe(pdf.length);
    expect(pdf.toString('latin1')).not.toContain('/Type /DSS');
    expect(coverage(pdfsig(pdf, tsa.pki.nssDir))).toEqual(['Total document signed']);
    expect(coverage(pdfsig(await forge(pdf), tsa.pki.nssDir))).toEqual(['Not total document signed']);
    const page = pdfText(pdf);
    expect(page).toContain('(PAdES B-T)');
    expect(page).not.toContain('incremental update (PAdES B-LT)');
    expect(page.replace(/\s+/g, ' ')).toMatch(/otherwise the file ends with this signature \(PAdES B-T\)/);
  });

  it('when the TSA answers the signature but not the document time-stamp, the seal stays B-T and ends with its signature', async () => {
    const answersTheSignatureOnly = tsa.address(1);
    const done = await sealedApart('Hedy Lamarr', (sent) =>
      sealRequest(withTsa(answersTheSignatureOnly), t.account('acme').id, sent.id),
    );
    expect(done).toMatchObject({ status: 'completed', sealLevel: 'B-T' });
    const pdf = await download(done.id);
    const parts = signedParts(pdf);
    expect(parts.signedRevision.length).toBe(pdf.length);
    expect(parts.timestampToken).not.toBeNull();
    // what was answered is the signature value's time-stamp; what was refused, another (the document's)
    const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    const asked = tsa.queries(answersTheSignatureOnly).map((q) => ({ imprint: q.imprint.toString('hex'), answered: q.answered }));
    expect(asked).toEqual([
      { imprint: sha256(parts.signatureValue), answered: true },
      { imprint: expect.not.stringMatching(sha256(parts.signatureValue)), answered: false },
    ]);
  });

  it('while the TSA is down the seal waits (the request stays signed, the job notes why) and is timestamped once it answers', async () => {
    const server = withTsa(tsa.url);
    const sent = await sealedApart('Alan Turing', async (sent) => {
      await tsa.down();
      try {
        await expect(sealRequest(server, t.account('acme').id, sent.id)).rejects.toThrow(
          /time-stamping authority could not be reached/,
        );
        await sealSignedRequests(server);
        const row = (
          await t.db.system((trx) =>
            sql<{
              status: string;
              seal_error: string | null;
              seal_attempts: number;
            }>`select status, seal_error, seal_attempts from sig_requests where id = ${sent.id}`.execute(trx),
          )
        ).rows[0]!;
        // waiting for the TSA is not a failed attempt (the grace time bounds it, not the attempt limit)
        expect(row).toMatchObject({ status: 'signed', seal_attempts: 0 });
        expect(row.seal_error).toMatch(/time-stamping authority/);
      } finally {
        await tsa.up();
      }
      await sealSignedRequests(server);
      return sent;
    });
    const done = (await (await v1(t, key, 'GET', `/signatures/${sent.id}`)).json()) as SigRequest;
    expect(done).toMatchObject({ status: 'completed', sealLevel: 'B-LTA' });
    expect(signedParts(await download(sent.id)).timestampToken).not.toBeNull();
  });

  it('past the grace time with the TSA still down the seal is B-B and its certificate page says the TSA did not answer', async () => {
    const done = await sealedApart('Ada Lovelace', async (sent) => {
      await tsa.down();
      try {
        return await sealRequest(pastGrace(withTsa(tsa.url)), t.account('acme').id, sent.id);
      } finally {
        await tsa.up();
      }
    });
    expect(done).toMatchObject({ status: 'completed', sealLevel: 'B-B', timestampedAt: null });
    const pdf = await download(done.id);
    const parts = signedParts(pdf);
    expect(parts.timestampToken).toBeNull();
    expect(opensslCmsPrint(parts.cms)).not.toContain('timeStampToken');
    expect(pdfText(parts.signedRevision)).toMatch(
      /No trusted timestamp \(PAdES B-B\): the time-stamping authority \(http:\/\/127\.0\.0\.1:\d+\/tsa\) did not answer/,
    );
    expect(pdfsig(pdf, tsa.pki.nssDir)).toContain('Signature is Valid');
    // a B-B seal claims no level it lacks, and nothing follows its signature
    expect(pdfText(pdf)).not.toContain('B-LT');
    expect(parts.signedRevision.length).toBe(pdf.length);
  });

  it('a TSA that answers HTTP 503 past the grace time: a B-B seal whose page says so in one sentence, ending with its signature; a forgery appended to it is told apart', async () => {
    const refusesAll = tsa.address(0);
    const done = await sealedApart('Mary Jackson', (sent) =>
      sealRequest(pastGrace(withTsa(refusesAll)), t.account('acme').id, sent.id),
    );
    expect(done).toMatchObject({ status: 'completed', sealLevel: 'B-B' });
    expect(tsa.queries(refusesAll)).toHaveLength(1);
    const pdf = await download(done.id);
    const page = pdfText(pdf).replace(/\s+/g, ' ');
    expect(page).toContain(
      "did not answer: The time-stamping authority answered HTTP 503. The signing time is the server's clock.",
    );
    expect(page).not.toContain('..');
    expect(page).toContain('Nothing is added after this signature: the file ends with it');
    expect(page).not.toContain('B-LT');
    expect(signedParts(pdf).signedRevision.length).toBe(pdf.length);
    expect(coverage(pdfsig(pdf, tsa.pki.nssDir))).toEqual(['Total document signed']);
    const forged = await forge(pdf);
    expect(pdfText(forged)).toContain('FORGED AMOUNT 999');
    expect(coverage(pdfsig(forged, tsa.pki.nssDir))).toEqual(['Not total document signed']);
    expect(await pkijsVerifyDetached(signedParts(pdf).cms, signedParts(pdf).signedBytes, tsa.pki.caFile)).toMatchObject({
      ok: true,
    });
  });

  it('without a configured TSA the seal is B-B and the certificate page says none is configured', async () => {
    // signing seals at once in the background with the server's configuration: the server has
    // no TSA from before the signature until the seal is made
    const url = raw.SIGNING_TSA_URL;
    delete raw.SIGNING_TSA_URL;
    let done: SigRequest;
    try {
      const sent = await signedRequest(t, key, doc, 'Edsger Dijkstra');
      done = await sealRequest(t.deps, t.account('acme').id, sent.id);
    } finally {
      raw.SIGNING_TSA_URL = url;
    }
    const sent = done;
    expect(done.sealLevel).toBe('B-B');
    const parts = signedParts(await download(sent.id));
    expect(parts.timestampToken).toBeNull();
    expect(pdfText(parts.signedRevision)).toContain('No trusted timestamp (PAdES B-B): no time-stamping authority is configured');
    expect(pdfText(parts.signedRevision)).not.toContain('B-LT');
    expect(opensslCmsVerify(parts.cms, parts.signedBytes, tsa.pki.caFile).ok).toBe(true);
  });

  it('a token from a TSA the configuration does not trust is refused, not embedded', async () => {
    const otherCa = path.join(tsa.pki.dir, 'other-ca.pem');
    // a CA that did not issue the TSA's certificate: the signer's own certificate stands in
    fs.copyFileSync(path.join(tsa.pki.dir, 'provider.crt'), otherCa);
    const wrongTrust = {
      ...t.deps,
      config: { ...t.config, raw: { ...raw, SIGNING_TSA_URL: tsa.url, SIGNING_TSA_CA_FILE: otherCa } },
    };
    await expect(sealedApart('Barbara Liskov', (sent) => sealRequest(wrongTrust, t.account('acme').id, sent.id))).rejects.toThrow(
      /timestamp token was refused/,
    );
  });

  // ------------------------------------------------------------ the account's own certificate

  const uploadCertificate = (body: unknown, as = ADMIN) =>
    t.call('POST', '/document-signature/signing/certificates', { as, body });
  const overview = async () => (await (await t.call('GET', '/document-signature/signing', { as: ADMIN })).json()) as SigSigning;
  const stored = () =>
    t.db.tenant(
      t.account('acme').id,
      async (trx) =>
        (await sql<Record<string, unknown>>`select * from sig_signing_certificates order by uploaded_at`.execute(trx)).rows,
    );
  const audited = (event: string) =>
    t.db.tenant(
      t.account('acme').id,
      async (trx) =>
        (await sql<{ description: string }>`select description from audit_log where event = ${event} order by id`.execute(trx))
          .rows,
    );

  it('uploads that fail a check are refused with the reason, and nothing is stored', async () => {
    const pki = tsa.pki;
    const p12 = (keyFile: string, certs: string[]) => pki.pkcs12(keyFile, certs, 'pw').toString('base64');
    const signing = 'basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature,nonRepudiation';
    const weak = pki.issue('weak', '/CN=Weak key/O=Acme', signing, 'rsa1024');
    const tsaOnly = pki.issue(
      'tsa-purpose',
      '/CN=Only time stamping/O=Acme',
      'basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature\nextendedKeyUsage = critical,timeStamping',
    );
    const noSign = pki.issue(
      'encipher',
      '/CN=Encipher only/O=Acme',
      'basicConstraints = CA:FALSE\nkeyUsage = critical,keyEncipherment',
    );
    const alone = pki.issue('alone', '/CN=Without its chain/O=Acme', signing, 'ec');
    const shortLived = pki.issue('short', '/CN=Short lived/O=Acme', signing, 'ec', 1);
    // the certificates made just now are valid from now on
    t.clock.now = new Date();
    const cases: [unknown, RegExp][] = [
      [{ format: 'pkcs12', file: pki.account.p12.toString('base64'), password: 'wrong' }, /password does not open/],
      [{ format: 'pkcs12', file: Buffer.from('not a pkcs12 file').toString('base64'), password: 'x' }, /not a PKCS#12/],
      [
        { format: 'pkcs12', file: p12(weak.keyFile, [weak.certFile, pki.caFile]), password: 'pw' },
        /RSA 1024 bits: at least 2048/,
      ],
      [
        { format: 'pkcs12', file: p12(tsaOnly.keyFile, [tsaOnly.certFile, pki.caFile]), password: 'pw' },
        /issued for other purposes/,
      ],
      [{ format: 'pkcs12', file: p12(noSign.keyFile, [noSign.certFile, pki.caFile]), password: 'pw' }, /may not sign/],
      // the chain left out: its issuer is missing
      [
        { format: 'pkcs12', file: p12(alone.keyFile, [alone.certFile]), password: 'pw' },
        /issuer of .* is missing: include the whole chain/,
      ],
      [
        { format: 'pkcs12', file: p12(path.join(pki.dir, 'ca.key'), [pki.caFile]), password: 'pw' },
        /certification authority certificate/,
      ],
      [{ format: 'pem', pem: fs.readFileSync(pki.caFile, 'utf8') }, /no private key/],
    ];
    for (const [body, message] of cases) {
      const res = await uploadCertificate(body);
      expect(res.status, String(message)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'CERTIFICATE_INVALID', message: expect.stringMatching(message) });
    }
    const late = await uploadCertificate({
      format: 'pkcs12',
      file: p12(shortLived.keyFile, [shortLived.certFile, pki.caFile]),
      password: 'pw',
      activeFrom: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { activeFrom: expect.stringContaining('expires') },
    });
    // only admins manage certificates
    expect(
      (
        await uploadCertificate(
          { format: 'pkcs12', file: pki.account.p12.toString('base64'), password: pki.account.password },
          'supervisor@acme.test',
        )
      ).status,
    ).toBe(403);
    expect(await stored()).toHaveLength(0);
    expect((await overview()).certificates).toHaveLength(0);
  });

  it("an admin uploads the account's own certificate: kept encrypted, the password neither stored nor returned, audited", async () => {
    const { p12, password, subject } = tsa.pki.account;
    const res = await uploadCertificate({ format: 'pkcs12', file: p12.toString('base64'), password });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(password);
    expect(text).not.toMatch(/PRIVATE KEY|encrypted/i);
    expect(JSON.parse(text)).toMatchObject({
      subject,
      keyType: 'EC P-256',
      state: 'active',
      uploadedBy: 'Olivia Owens',
      issuer: expect.stringContaining('Switchboard Test Root CA'),
    });
    const view = await overview();
    expect(view).toMatchObject({
      certificates: [{ subject, state: 'active' }],
      providerCertificate: { subject: 'Switchboard Provider Signing', development: false },
      timestampAuthority: tsa.url,
    });
    const [row] = await stored();
    expect(String(row!.encrypted_key)).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(password);
    expect(JSON.stringify(row)).not.toContain('PRIVATE KEY');
    expect((await audited('signing-certificate.uploaded'))[0]!.description).toContain(
      `Uploaded the signing certificate ${subject} (EC P-256`,
    );
    // the same certificate twice is refused
    expect((await uploadCertificate({ format: 'pkcs12', file: p12.toString('base64'), password })).status).toBe(409);
  });

  it("seals are then made with the account's certificate, and verify the same way: pdfsig trusted, openssl cms and ts", async () => {
    const done = await sealedApart('Katherine Johnson', (sent) => sealRequest(withTsa(tsa.url), t.account('acme').id, sent.id));
    expect(done).toMatchObject({ status: 'completed', sealedBy: tsa.pki.account.subject, sealLevel: 'B-LTA' });
    const pdf = await download(done.id);
    const report = pdfsig(pdf, tsa.pki.nssDir);
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Certificate Validation: Certificate is Trusted.');
    expect(report).toContain(`Signer Certificate Common Name: ${tsa.pki.account.subject}`);
    const parts = signedParts(pdf);
    expect(opensslCmsVerify(parts.cms, parts.signedBytes, tsa.pki.caFile).ok).toBe(true);
    const printed = opensslCmsPrint(parts.cms);
    expect(printed).toContain('ecdsa-with-SHA256');
    expect(printed.slice(printed.indexOf('signedAttrs:'), printed.indexOf('unsignedAttrs:'))).not.toContain('signingTime');
    expect(opensslTsVerify(parts.timestampToken!, parts.signatureValue, tsa.pki.caFile).output).toContain('Verification: OK');
    expect(pdfText(parts.signedRevision)).toContain(`Sealed by ${tsa.pki.account.subject} (the account's own certificate)`);
    const tampered = Buffer.from(pdf);
    tampered[100] = tampered[100]! ^ 0x01;
    expect(pdfsig(tampered, tsa.pki.nssDir)).not.toContain('Signature is Valid');
  });

  it('rotation: a certificate scheduled ahead takes over at its time, the one it replaces stays listed; removing one is audited and erases its key', async () => {
    const next = tsa.pki.issue(
      'rotated',
      '/CN=Acme Insurance Signing 2027/O=Acme Insurance',
      'basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature,nonRepudiation',
    );
    const pem = [next.keyFile, next.certFile, tsa.pki.caFile].map((f) => fs.readFileSync(f, 'utf8')).join('');
    t.clock.now = new Date();
    const takesOver = new Date(t.clock.now.getTime() + 86_400_000);
    const res = await uploadCertificate({ format: 'pem', pem, activeFrom: takesOver.toISOString() });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ subject: 'Acme Insurance Signing 2027', keyType: 'RSA 2048', state: 'scheduled' });
    expect((await overview()).certificates.map((c) => [c.subject, c.state])).toEqual([
      ['Acme Insurance Signing 2027', 'scheduled'],
      [tsa.pki.account.subject, 'active'],
    ]);
    expect((await audited('signing-certificate.uploaded')).at(-1)!.description).toContain('it takes over on');

    const clock = t.clock.now;
    try {
      t.clock.now = new Date(takesOver.getTime() + 60_000);
      const view = await overview();
      expect(view.certificates.map((c) => [c.subject, c.state])).toEqual([
        ['Acme Insurance Signing 2027', 'active'],
        [tsa.pki.account.subject, 'previous'],
      ]);
      const sent = await signedRequest(t, key, doc, 'Dorothy Vaughan');
      expect((await sealRequest(t.deps, t.account('acme').id, sent.id)).sealedBy).toBe('Acme Insurance Signing 2027');

      const removed = await t.call('DELETE', `/document-signature/signing/certificates/${view.certificates[0]!.id}`, {
        as: ADMIN,
      });
      expect(removed.status).toBe(200);
      expect(((await removed.json()) as SigSigning).certificates.map((c) => [c.subject, c.state])).toEqual([
        [tsa.pki.account.subject, 'active'],
      ]);
      expect(
        (await t.call('DELETE', `/document-signature/signing/certificates/${view.certificates[0]!.id}`, { as: ADMIN })).status,
      ).toBe(404);
    } finally {
      t.clock.now = clock;
    }
    const rows = await stored();
    expect(rows.find((r) => r.subject === 'Acme Insurance Signing 2027')).toMatchObject({
      encrypted_key: '',
      removed_by: 'Olivia Owens',
    });
    expect((await audited('signing-certificate.removed'))[0]!.description).toContain(
      'Removed the signing certificate Acme Insurance Signing 2027',
    );
  });
});
