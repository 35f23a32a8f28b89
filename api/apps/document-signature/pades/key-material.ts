import crypto from 'node:crypto';
import forge from 'node-forge';
import { readCert, type Cert } from './asn1';

// Reading a signing key and its certificates from what people have: a PKCS#12 file (.p12,
// .pfx) with its password, or PEM text with the private key (optionally encrypted) and the
// certificates. node-forge decrypts PKCS#12 (Node cannot); it reads only RSA keys and
// certificates itself, so the key and certificates go to Node as DER either way.

export class KeyMaterialError extends Error {}

export type KeyMaterial = { key: crypto.KeyObject; certificate: Cert; others: Cert[] };

const bytesOf = (asn1: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');

export function readPkcs12(p12: Buffer, password: string): KeyMaterial {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))), password);
  } catch (err) {
    if (err instanceof Error && /password|MAC/i.test(err.message))
      throw new KeyMaterialError('The password does not open this PKCS#12 file.');
    throw new KeyMaterialError('This file is not a PKCS#12 (.p12 or .pfx) file.');
  }
  const keyBags = [
    ...(parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(parsed.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  if (keyBags.length !== 1)
    throw new KeyMaterialError(
      keyBags.length ? 'The file holds several private keys: export only the signing key.' : 'The file holds no private key.',
    );
  const bag = keyBags[0]!;
  const keyDer = bag.key
    ? bytesOf(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)))
    : bag.asn1
      ? bytesOf(bag.asn1)
      : null;
  if (!keyDer) throw new KeyMaterialError('The private key in the file cannot be read.');
  const key = crypto.createPrivateKey({ key: keyDer, format: 'der', type: 'pkcs8' });
  const certBags = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const certs = certBags.map((b) => readCert(b.cert ? bytesOf(forge.pki.certificateToAsn1(b.cert)) : bytesOf(b.asn1!)));
  return withLeaf(key, certs);
}

export function readPem(pem: string, password: string): KeyMaterial {
  const keyBlock = pem.match(
    /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/,
  )?.[0];
  if (!keyBlock) throw new KeyMaterialError('The PEM text holds no private key.');
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey({ key: keyBlock, passphrase: password || undefined });
  } catch {
    throw new KeyMaterialError(
      keyBlock.includes('ENCRYPTED') ? 'The password does not open this private key.' : 'The private key cannot be read.',
    );
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  let certs: Cert[];
  try {
    certs = blocks.map((b) => readCert(new crypto.X509Certificate(b).raw));
  } catch {
    throw new KeyMaterialError('A certificate in the PEM text cannot be read.');
  }
  return withLeaf(key, certs);
}

/** The certificate of this key, and the rest. */
function withLeaf(key: crypto.KeyObject, certs: Cert[]): KeyMaterial {
  const publicKey = crypto.createPublicKey(key).export({ type: 'spki', format: 'der' });
  const certificate = certs.find((c) => c.x509.publicKey.export({ type: 'spki', format: 'der' }).equals(publicKey));
  if (!certificate)
    throw new KeyMaterialError(
      certs.length ? 'No certificate in the file belongs to the private key.' : 'The file holds no certificate.',
    );
  return { key, certificate, others: certs.filter((c) => c !== certificate) };
}
