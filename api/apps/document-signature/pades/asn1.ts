import crypto from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import type { Attribute } from '@peculiar/asn1-cms';

// Small DER facts the CMS code shares: object identifiers, a certificate read once, and the
// DER form of a SET OF attributes (what a CMS signature covers).

export const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  sha384WithRSA: '1.2.840.113549.1.1.12',
  sha512WithRSA: '1.2.840.113549.1.1.13',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  /** ESS signing-certificate-v2 (RFC 5035) */
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  /** id-aa-signatureTimeStampToken (RFC 3161 appendix A) */
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  extKeyUsage: '2.5.29.37',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  crlDistributionPoints: '2.5.29.31',
} as const;

const HASH_OF: Record<string, string> = { [OID.sha256]: 'sha256', [OID.sha384]: 'sha384', [OID.sha512]: 'sha512' };

/** Node's name for a digest algorithm OID, or null when we do not accept it. */
export const hashName = (oid: string): string | null => HASH_OF[oid] ?? null;

export const der = (value: unknown): Buffer => Buffer.from(AsnConvert.serialize(value));

/** A certificate parsed once, with its exact DER (asn1-schema re-encodes; we check it matches). */
export type Cert = { der: Buffer; x509: crypto.X509Certificate; asn: Certificate };

export function readCert(bytes: Buffer | Uint8Array): Cert {
  const x509 = new crypto.X509Certificate(Buffer.from(bytes));
  const asn = AsnConvert.parse(x509.raw, Certificate);
  // the CMS carries the certificate as asn1-schema writes it: it must be the same bytes
  if (!der(asn).equals(x509.raw)) throw new Error('The certificate is not in canonical DER.');
  return { der: x509.raw, x509, asn };
}

/** Certificates from PEM text (several blocks) */
export function certsFromPem(pem: string): Cert[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => readCert(new crypto.X509Certificate(b).raw));
}

/** DER of SET OF Attribute, sorted as DER requires; also the order to write them in. */
export function attributeSet(attributes: Attribute[]): { set: Buffer; sorted: Attribute[] } {
  const encoded = attributes.map((a) => ({ a, bytes: der(a) })).sort((x, y) => Buffer.compare(x.bytes, y.bytes));
  const body = Buffer.concat(encoded.map((e) => e.bytes));
  return { set: Buffer.concat([Buffer.from([0x31]), derLength(body.length), body]), sorted: encoded.map((e) => e.a) };
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** An extension of a certificate, by OID. */
export function extension(cert: Cert, oid: string) {
  return cert.asn.tbsCertificate.extensions?.find((e) => e.extnID === oid) ?? null;
}
