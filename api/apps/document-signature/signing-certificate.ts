import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import type { Config } from '../../config';

// The platform's signing certificate, which seals every completed document. In production it is
// a PKCS#12 file the operator provides (SIGNING_CERT_P12, with SIGNING_CERT_PASSPHRASE); a seal
// made with a throwaway certificate would be worthless, so production refuses to seal without
// one. In development a self-signed certificate is generated once and kept in DATA_DIR, so the
// seals of one machine stay verifiable against one certificate across restarts; where DATA_DIR
// cannot be written (tests) it lives for the process.

export type SigningCertificate = { p12: Buffer; passphrase: string; subject: string };

const DEV_FILE = 'signing-certificate.p12';
const DEV_PASSPHRASE = 'switchboard-development';

let cached: { key: string; cert: SigningCertificate } | null = null;

export class SigningNotConfiguredError extends Error {}

/** A self-signed certificate for development: key made by Node (fast), wrapped by forge. */
export function generateSelfSigned(commonName: string, passphrase: string): Buffer {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01' + crypto.randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const attrs = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Switchboard (development)' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], passphrase, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

function subjectOf(p12: Buffer, passphrase: string): string {
  const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))), passphrase);
  const bags = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const cert = bags[0]?.cert;
  if (!cert) throw new SigningNotConfiguredError('SIGNING_CERT_P12 holds no certificate.');
  return String(cert.subject.getField('CN')?.value ?? 'Switchboard');
}

/** The certificate to seal with (read once per process). */
export function signingCertificate(config: Pick<Config, 'env' | 'dataDir' | 'raw'>): SigningCertificate {
  const file = config.raw.SIGNING_CERT_P12;
  const key = `${config.env}:${config.dataDir}:${file ?? ''}`;
  if (cached?.key === key) return cached.cert;
  let cert: SigningCertificate;
  if (file) {
    const passphrase = config.raw.SIGNING_CERT_PASSPHRASE ?? '';
    const p12 = fs.readFileSync(file);
    cert = { p12, passphrase, subject: subjectOf(p12, passphrase) };
  } else if (config.env === 'production') {
    throw new SigningNotConfiguredError('No signing certificate: set SIGNING_CERT_P12 (a PKCS#12 file) and SIGNING_CERT_PASSPHRASE.');
  } else {
    const kept = path.join(config.dataDir, DEV_FILE);
    let p12: Buffer;
    if (fs.existsSync(kept)) p12 = fs.readFileSync(kept);
    else {
      p12 = generateSelfSigned('Switchboard development signing', DEV_PASSPHRASE);
      try {
        fs.mkdirSync(config.dataDir, { recursive: true });
        fs.writeFileSync(kept, p12, { mode: 0o600 });
      } catch {
        // DATA_DIR not writable (tests): this process keeps it in memory
      }
    }
    cert = { p12, passphrase: DEV_PASSPHRASE, subject: subjectOf(p12, DEV_PASSPHRASE) };
  }
  cached = { key, cert };
  return cert;
}
