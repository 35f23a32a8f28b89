import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  CMSVersion,
  ContentInfo,
  DigestAlgorithmIdentifier,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignatureAlgorithmIdentifier,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
  id_data,
  id_signedData,
} from '@peculiar/asn1-cms';
import { OID, attributeSet, der, type Cert } from './asn1';

// The CMS signature a PAdES baseline signature carries in /Contents (ETSI EN 319 142-1, with
// CAdES EN 319 122-1): detached SignedData over the PDF's byte range, SHA-256, and exactly the
// signed attributes PAdES asks for: content-type, message-digest and ESS signing-certificate-v2.
// No signing-time: PAdES puts the claimed time in the signature dictionary's /M. A trusted time
// comes as an RFC 3161 token over the signature value, in the unsigned attributes.

/** Who signs: a private key and its certificate, with the chain up to (and with) the root. */
export type CmsSigner = { key: crypto.KeyObject; certificate: Cert; chain: Cert[] };

/** Asks a time-stamping authority for a token over these bytes (the signature value). */
export type Timestamper = (signatureValue: Buffer) => Promise<Buffer>;

const algorithm = (oid: string, nullParams = false) =>
  new AlgorithmIdentifier({ algorithm: oid, parameters: nullParams ? new asn1js.Null().toBER() : undefined });

/** SigningCertificateV2 with one ESSCertIDv2 (SHA-256 is the default hash: not written, per DER). */
function signingCertificateV2(cert: Cert): ArrayBuffer {
  const tbs = cert.asn.tbsCertificate;
  const issuerName = asn1js.fromBER(der(tbs.issuer)).result;
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: crypto.createHash('sha256').update(cert.der).digest() }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [issuerName] })],
          }),
          new asn1js.Integer({ valueHex: tbs.serialNumber }),
        ],
      }),
    ],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] }).toBER();
}

export function signatureAlgorithmOf(key: crypto.KeyObject): { oid: string; nullParams: boolean } {
  if (key.asymmetricKeyType === 'rsa') return { oid: OID.sha256WithRSA, nullParams: true };
  if (key.asymmetricKeyType === 'ec') return { oid: OID.ecdsaWithSHA256, nullParams: false };
  throw new Error(`Keys of type ${key.asymmetricKeyType} cannot sign here.`);
}

/**
 * Signs `content` (the PDF's byte range) as detached CAdES; with a timestamper the signature
 * value is time-stamped and the token added as id-aa-signatureTimeStampToken.
 */
export async function cadesDetached(content: Buffer, signer: CmsSigner, timestamper?: Timestamper): Promise<Buffer> {
  const digest = crypto.createHash('sha256').update(content).digest();
  const { set, sorted } = attributeSet([
    new Attribute({ attrType: OID.contentType, attrValues: [new asn1js.ObjectIdentifier({ value: id_data }).toBER()] }),
    new Attribute({ attrType: OID.messageDigest, attrValues: [new asn1js.OctetString({ valueHex: digest }).toBER()] }),
    new Attribute({ attrType: OID.signingCertificateV2, attrValues: [signingCertificateV2(signer.certificate)] }),
  ]);
  const signature = crypto.sign('sha256', set, signer.key);
  const sigAlg = signatureAlgorithmOf(signer.key);
  const tbs = signer.certificate.asn.tbsCertificate;
  const signerInfo = new SignerInfo({
    version: CMSVersion.v1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({ issuer: tbs.issuer, serialNumber: tbs.serialNumber }),
    }),
    digestAlgorithm: new DigestAlgorithmIdentifier(algorithm(OID.sha256)),
    signedAttrs: sorted,
    signatureAlgorithm: new SignatureAlgorithmIdentifier(algorithm(sigAlg.oid, sigAlg.nullParams)),
    signature: new OctetString(signature),
  });
  if (timestamper) {
    const token = await timestamper(signature);
    signerInfo.unsignedAttrs = [
      new Attribute({ attrType: OID.signatureTimeStampToken, attrValues: [new Uint8Array(token).buffer] }),
    ];
  }
  const signedData = new SignedData({
    version: CMSVersion.v1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([new DigestAlgorithmIdentifier(algorithm(OID.sha256))]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: id_data }),
    certificates: new CertificateSet(
      [signer.certificate, ...signer.chain].map((c) => new CertificateChoices({ certificate: c.asn })),
    ),
    signerInfos: new SignerInfos([signerInfo]),
  });
  return Buffer.from(
    AsnConvert.serialize(new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) })),
  );
}
