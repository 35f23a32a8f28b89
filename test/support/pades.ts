import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import * as pkijs from 'pkijs';

// What the PAdES tests take out of a sealed PDF to hand to tools that are not ours: the signed
// byte range, the CMS in /Contents, its signature value and timestamp token; and those tools
// (pdfsig, openssl cms, openssl ts) run on temporary files; and pkijs, a CMS verifier in
// JavaScript that is not ours either (a dev dependency, tests only).

export type SignedParts = {
  byteRange: number[];
  signedBytes: Buffer;
  cms: Buffer;
  signatureValue: Buffer;
  timestampToken: Buffer | null;
  signedRevision: Buffer;
};

/** The first signature's parts (one signature per sealed document). */
export function signedParts(pdf: Buffer): SignedParts {
  const text = pdf.toString('latin1');
  const m = text.match(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/);
  if (!m) throw new Error('no /ByteRange');
  const byteRange = m.slice(1, 5).map(Number);
  const [a, b, c, d] = byteRange as [number, number, number, number];
  const signedBytes = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const hex = text.slice(a + b + 1, c - 1);
  const padded = Buffer.from(hex, 'hex');
  // DER: 30 82 LL LL is the whole structure; the rest of the placeholder is zeros
  const length =
    padded[1] === 0x82 ? 4 + padded.readUInt16BE(2) : padded[1] === 0x83 ? 5 + padded.readUIntBE(2, 3) : 2 + padded[1]!;
  const cms = padded.subarray(0, length);
  const signed = AsnConvert.parse(AsnConvert.parse(cms, ContentInfo).content, SignedData);
  const signer = signed.signerInfos[0]!;
  const token = signer.unsignedAttrs?.find((x) => x.attrType === '1.2.840.113549.1.9.16.2.14')?.attrValues[0];
  return {
    byteRange,
    signedBytes,
    cms,
    signatureValue: Buffer.from(signer.signature.buffer),
    timestampToken: token ? Buffer.from(token) : null,
    signedRevision: pdf.subarray(0, c + d),
  };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pades-check-'));

/** pdfsig's report (it exits non-zero for an invalid signature; the report is what we check). */
export function pdfsig(pdf: Buffer, nssDir?: string): string {
  const dir = tmp();
  try {
    fs.writeFileSync(path.join(dir, 'f.pdf'), pdf);
    const r = spawnSync('pdfsig', [...(nssDir ? ['-nssdir', `sql:${nssDir}`] : []), path.join(dir, 'f.pdf')], {
      encoding: 'utf8',
    });
    return `${r.stdout}${r.stderr}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl cms -verify` of the detached CMS over the signed bytes; its verdict and output. */
export function opensslCmsVerify(cms: Buffer, content: Buffer, caFile: string): { ok: boolean; output: string } {
  const dir = tmp();
  try {
    fs.writeFileSync(path.join(dir, 'sig.der'), cms);
    fs.writeFileSync(path.join(dir, 'data.bin'), content);
    const r = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        path.join(dir, 'sig.der'),
        '-content',
        path.join(dir, 'data.bin'),
        '-CAfile',
        caFile,
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { encoding: 'utf8' },
    );
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl cms -cmsout -print`: the CMS structure as openssl reads it. */
export function opensslCmsPrint(cms: Buffer): string {
  return execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER'], { input: cms, encoding: 'utf8' });
}

/** `openssl ts -verify` of a timestamp token over `data` against the TSA's CA. */
export function opensslTsVerify(token: Buffer, data: Buffer, caFile: string): { ok: boolean; output: string } {
  const dir = tmp();
  try {
    fs.writeFileSync(path.join(dir, 'token.der'), token);
    fs.writeFileSync(path.join(dir, 'data.bin'), data);
    const r = spawnSync(
      'openssl',
      ['ts', '-verify', '-token_in', '-in', path.join(dir, 'token.der'), '-data', path.join(dir, 'data.bin'), '-CAfile', caFile],
      { encoding: 'utf8' },
    );
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });

// ---------------------------------------------------------------- pkijs: an independent CMS verifier

/** The certificates of a PEM file (the test CA), as pkijs reads them. */
function pemCertificates(file: string): pkijs.Certificate[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)].map((m) =>
    pkijs.Certificate.fromBER(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')),
  );
}

const arrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/**
 * pkijs's verdict on a detached CMS over `content`: the signature over the signed attributes and
 * the message digest, and the signer's chain to the CA in `caFile` (checkChain).
 */
export async function pkijsVerifyDetached(
  cms: Buffer,
  content: Buffer,
  caFile: string,
): Promise<{ ok: boolean; signer: string; message: string }> {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBuffer(cms)).content });
  const result = await signed
    .verify({
      signer: 0,
      data: arrayBuffer(content),
      trustedCerts: pemCertificates(caFile),
      checkChain: true,
      extendedMode: true,
    })
    .catch((err: pkijs.SignedDataVerifyError) => err);
  const cn = result.signerCertificate?.subject.typesAndValues.find((t) => t.type === '2.5.4.3')?.value.valueBlock.value ?? '';
  return { ok: !!result.signatureVerified && !!result.signerCertificateVerified, signer: String(cn), message: result.message };
}

/**
 * pkijs's verdict on an RFC 3161 token (a document time-stamp or a signature time-stamp): the
 * token's own signature and chain to `caFile`, and its imprint is the SHA-256 of `data`.
 */
export async function pkijsVerifyTimestamp(
  token: Buffer,
  data: Buffer,
  caFile: string,
): Promise<{ ok: boolean; time: Date | null; message: string }> {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBuffer(token)).content });
  // for a token, pkijs checks the TSTInfo's imprint against `data` itself (and the time is the token's)
  const result = await signed
    .verify({ signer: 0, data: arrayBuffer(data), trustedCerts: pemCertificates(caFile), checkChain: true, extendedMode: true })
    .catch((err: pkijs.SignedDataVerifyError) => err);
  const tst = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent!.getValue());
  const imprint = await tst.verify({ data: arrayBuffer(data) }).catch(() => false);
  return {
    ok: !!result.signatureVerified && !!result.signerCertificateVerified && imprint,
    time: tst.genTime ?? null,
    message: `${result.message} signature=${result.signatureVerified} chain=${result.signerCertificateVerified} imprint=${imprint}`,
  };
}

/** The last signature of the file (a document time-stamp's): its byte range, token and what it covers. */
export function lastSignature(pdf: Buffer): { byteRange: number[]; covered: Buffer; contents: Buffer; subFilter: string | null } {
  const text = pdf.toString('latin1');
  const all = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const m = all.at(-1);
  if (!m) throw new Error('no /ByteRange');
  const byteRange = m.slice(1, 5).map(Number);
  const [a, b, c, d] = byteRange as [number, number, number, number];
  const padded = Buffer.from(text.slice(a + b + 1, c - 1), 'hex');
  const length =
    padded[1] === 0x82 ? 4 + padded.readUInt16BE(2) : padded[1] === 0x83 ? 5 + padded.readUIntBE(2, 3) : 2 + padded[1]!;
  const dict = text.slice(text.lastIndexOf('<<', m.index), m.index + 400);
  return {
    byteRange,
    covered: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
    contents: padded.subarray(0, length),
    subFilter: dict.match(/\/SubFilter\s*\/([\w.]+)/)?.[1] ?? null,
  };
}
