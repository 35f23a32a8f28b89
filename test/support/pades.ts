import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';

// What the PAdES tests take out of a sealed PDF to hand to tools that are not ours: the signed
// byte range, the CMS in /Contents, its signature value and timestamp token; and those tools
// (pdfsig, openssl cms, openssl ts) run on temporary files.

export type SignedParts = { byteRange: number[]; signedBytes: Buffer; cms: Buffer; signatureValue: Buffer; timestampToken: Buffer | null; signedRevision: Buffer };

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
  const length = padded[1] === 0x82 ? 4 + padded.readUInt16BE(2) : padded[1] === 0x83 ? 5 + padded.readUIntBE(2, 3) : 2 + padded[1]!;
  const cms = padded.subarray(0, length);
  const signed = AsnConvert.parse(AsnConvert.parse(cms, ContentInfo).content, SignedData);
  const signer = signed.signerInfos[0]!;
  const token = signer.unsignedAttrs?.find((x) => x.attrType === '1.2.840.113549.1.9.16.2.14')?.attrValues[0];
  return { byteRange, signedBytes, cms, signatureValue: Buffer.from(signer.signature.buffer), timestampToken: token ? Buffer.from(token) : null, signedRevision: pdf.subarray(0, c + d) };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pades-check-'));

/** pdfsig's report (it exits non-zero for an invalid signature; the report is what we check). */
export function pdfsig(pdf: Buffer, nssDir?: string): string {
  const dir = tmp();
  try {
    fs.writeFileSync(path.join(dir, 'f.pdf'), pdf);
    const r = spawnSync('pdfsig', [...(nssDir ? ['-nssdir', `sql:${nssDir}`] : []), path.join(dir, 'f.pdf')], { encoding: 'utf8' });
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
    const r = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(dir, 'sig.der'), '-content', path.join(dir, 'data.bin'), '-CAfile', caFile, '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
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
    const r = spawnSync('openssl', ['ts', '-verify', '-token_in', '-in', path.join(dir, 'token.der'), '-data', path.join(dir, 'data.bin'), '-CAfile', caFile], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
