import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import type { Config } from '../../config';
import type { CmsSigner } from './pades/cades';
import { readPkcs12 } from './pades/key-material';
import { buildChain } from './pades/chain';

// The provider's signing certificate, which seals every completed document of an account that
// has not uploaded its own. In production it is a PKCS#12 file the operator provides
// (SIGNING_CERT_P12, with SIGNING_CERT_PASSPHRASE); a seal made with a throwaway certificate
// would be worthless, so production refuses to seal without one. In development (and tests that
// configure none) a self-signed certificate is generated once and kept in DATA_DIR, so the seals
// of one machine stay verifiable against one certificate across restarts; where DATA_DIR cannot
// be written (tests) it lives for the process.

/** Who seals: the CMS signer, the name shown, and whose certificate it is. */
export type SigningCertificate = {
  signer: CmsSigner;
  subject: string;
  owner: 'provider' | 'development' | 'account';
  certificateId?: string;
};

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

/** The common name of a certificate, for the certificate page and the console. */
export function commonName(x509: crypto.X509Certificate): string {
  return (
    x509.subject
      .split('\n')
      .find((l) => l.startsWith('CN='))
      ?.slice(3) ?? x509.subject.replace(/\n/g, ', ')
  );
}

function fromPkcs12(p12: Buffer, passphrase: string, owner: SigningCertificate['owner']): SigningCertificate {
  const { key, certificate, others } = readPkcs12(p12, passphrase);
  let chain = others;
  try {
    chain = buildChain(certificate, others, new Date());
  } catch {
    // a self-signed development certificate, or an operator file without its full chain:
    // the seal carries what the file holds
  }
  return { signer: { key, certificate, chain }, subject: commonName(certificate.x509), owner };
}

/** The provider's certificate (read once per process). */
export function signingCertificate(config: Pick<Config, 'env' | 'dataDir' | 'raw'>): SigningCertificate {
  const file = config.raw.SIGNING_CERT_P12;
  const key = `${config.env}:${config.dataDir}:${file ?? ''}`;
  if (cached?.key === key) return cached.cert;
  let cert: SigningCertificate;
  if (file) {
    cert = fromPkcs12(fs.readFileSync(file), config.raw.SIGNING_CERT_PASSPHRASE ?? '', 'provider');
  } else if (config.env === 'production') {
    throw new SigningNotConfiguredError(
      'No signing certificate: set SIGNING_CERT_P12 (a PKCS#12 file) and SIGNING_CERT_PASSPHRASE.',
    );
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
    cert = fromPkcs12(p12, DEV_PASSPHRASE, 'development');
  }
  cached = { key, cert };
  return cert;
}
