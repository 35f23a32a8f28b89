import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, ExtendedKeyUsage } from '@peculiar/asn1-x509';
import { ContentInfo, SignedData, id_signedData } from '@peculiar/asn1-cms';
import { MessageImprint, TimeStampReq, TimeStampResp, TSTInfo } from '@peculiar/asn1-tsp';
import { outboundFetch, OutboundError, type OutboundPolicy } from '../../../integrations/outbound';
import { OID, der, hashName, readCert, type Cert } from './asn1';
import { buildChain, ChainError } from './chain';

// An RFC 3161 client: asks the configured time-stamping authority for a token over the
// signature value and checks what comes back before it goes into a seal: the imprint and our
// nonce, the token's own signature, the TSA certificate (extendedKeyUsage critical and only
// timeStamping) and its path to the CA the operator says to trust for that TSA.

export type TsaSettings = {
  url: string;
  /** the CA certificates a token's signer must chain to */
  trust: Cert[];
  timeoutMs: number;
  policy: OutboundPolicy;
};

/** The TSA could not give a usable token (down, refused, or a token that fails its checks). */
export class TsaUnavailable extends Error {
  override name = 'TsaUnavailable';
}

export type Timestamp = { token: Buffer; time: Date; tsa: Cert; chain: Cert[] };

/**
 * A query's nonce: random bits as a positive INTEGER in minimal DER. Its bytes are written as
 * they are, so a first byte of 0x00 before one below 0x80 would be padding DER forbids, and a
 * TSA that parses strictly (OpenSSL) refuses the whole query: one query in 256. The first byte
 * is kept within 0x01..0x7f.
 */
export function queryNonce(random: Buffer = crypto.randomBytes(8)): Buffer {
  const nonce = Buffer.from(random);
  nonce[0] = (nonce[0]! % 0x7f) + 1;
  return nonce;
}

/** The DER TimeStampReq for a SHA-256 imprint, asking for the TSA's certificate. */
export function timestampQuery(imprint: Buffer, nonce: Buffer): Buffer {
  return der(
    new TimeStampReq({
      version: 1,
      messageImprint: new MessageImprint({
        hashAlgorithm: new AlgorithmIdentifier({ algorithm: OID.sha256 }),
        hashedMessage: new OctetString(imprint),
      }),
      nonce: new Uint8Array(nonce).buffer,
      certReq: true,
    }),
  );
}

/** Requests a token over `data` (its SHA-256 imprint) and checks it. */
export async function requestTimestamp(tsa: TsaSettings, data: Buffer): Promise<Timestamp> {
  const imprint = crypto.createHash('sha256').update(data).digest();
  const nonce = queryNonce();
  let body: Buffer;
  try {
    const res = await outboundFetch(
      tsa.url,
      { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: timestampQuery(imprint, nonce) },
      { ...tsa.policy, timeoutMs: tsa.timeoutMs, maxBytes: 256 * 1024 },
    );
    if (!res.ok) throw new TsaUnavailable(`The time-stamping authority answered HTTP ${res.status}.`);
    body = res.body;
  } catch (err) {
    if (err instanceof OutboundError)
      throw new TsaUnavailable(`The time-stamping authority could not be reached: ${err.message}`);
    throw err;
  }
  let response: TimeStampResp;
  try {
    response = AsnConvert.parse(body, TimeStampResp);
  } catch {
    throw new TsaUnavailable('The time-stamping authority did not answer with a timestamp response.');
  }
  if (response.status.status > 1 || !response.timeStampToken) {
    throw new TsaUnavailable(
      `The time-stamping authority refused (status ${response.status.status}${response.status.statusString?.length ? `: ${response.status.statusString.join(' ')}` : ''}).`,
    );
  }
  const token = der(response.timeStampToken);
  try {
    return { token, ...checkTimestampToken(token, imprint, tsa.trust, nonce) };
  } catch (err) {
    if (err instanceof ChainError || err instanceof TokenError)
      throw new TsaUnavailable(`The timestamp token was refused: ${err.message}`);
    throw err;
  }
}

class TokenError extends Error {}

/**
 * The signer's signed attributes exactly as the TSA encoded them, tagged as the SET the
 * signature covers (not as the [0] field they are written in).
 */
function signedAttributesAsSigned(token: Buffer): Buffer {
  const nth = (block: asn1js.AsnType | undefined, i: number) =>
    ((block as asn1js.Constructed | undefined)?.valueBlock.value ?? [])[i];
  const contentInfo = asn1js.fromBER(token).result;
  const signedData = nth(nth(contentInfo, 1), 0) as asn1js.Constructed | undefined;
  const signerInfos = signedData?.valueBlock.value.at(-1);
  const signerInfo = nth(signerInfos, 0) as asn1js.Constructed | undefined;
  const attrs = signerInfo?.valueBlock.value.find((b) => b.idBlock.tagClass === 3 && b.idBlock.tagNumber === 0);
  if (!attrs) throw new TokenError('no signed attributes');
  const bytes = Buffer.from(attrs.valueBeforeDecodeView);
  bytes[0] = 0x31;
  return bytes;
}

/** Checks a token against the imprint it must carry; returns its time and signer. */
export function checkTimestampToken(
  token: Buffer,
  imprint: Buffer,
  trust: Cert[],
  nonce?: Buffer,
): { time: Date; tsa: Cert; chain: Cert[] } {
  const info = AsnConvert.parse(token, ContentInfo);
  if (info.contentType !== id_signedData) throw new TokenError('not SignedData');
  const signed = AsnConvert.parse(info.content, SignedData);
  if (signed.encapContentInfo.eContentType !== OID.tstInfo || !signed.encapContentInfo.eContent?.single)
    throw new TokenError('no TSTInfo');
  const tstBytes = Buffer.from(signed.encapContentInfo.eContent.single.buffer);
  const tst = AsnConvert.parse(tstBytes, TSTInfo);
  if (
    tst.messageImprint.hashAlgorithm.algorithm !== OID.sha256 ||
    !Buffer.from(tst.messageImprint.hashedMessage.buffer).equals(imprint)
  )
    throw new TokenError('the imprint is not of our signature');
  if (nonce && (!tst.nonce || BigInt(`0x${Buffer.from(tst.nonce).toString('hex')}`) !== BigInt(`0x${nonce.toString('hex')}`)))
    throw new TokenError('the nonce is not ours');

  const signerInfo = signed.signerInfos[0];
  if (!signerInfo || signed.signerInfos.length !== 1) throw new TokenError('not exactly one signer');
  const certs = (signed.certificates ?? []).flatMap((c) => (c.certificate ? [readCert(der(c.certificate))] : []));
  const sid = signerInfo.sid.issuerAndSerialNumber;
  const tsa = certs.find(
    (c) =>
      sid &&
      Buffer.from(c.asn.tbsCertificate.serialNumber).equals(Buffer.from(sid.serialNumber)) &&
      der(c.asn.tbsCertificate.issuer).equals(der(sid.issuer)),
  );
  if (!tsa) throw new TokenError('the token does not carry its signer certificate');

  const hash = hashName(signerInfo.digestAlgorithm.algorithm);
  if (!hash) throw new TokenError(`digest ${signerInfo.digestAlgorithm.algorithm} is not accepted`);
  const attrs = signerInfo.signedAttrs ?? [];
  const digestAttr = attrs.find((a) => a.attrType === OID.messageDigest)?.attrValues[0];
  const digest = digestAttr
    ? Buffer.from((asn1js.fromBER(digestAttr).result as asn1js.OctetString).valueBlock.valueHexView)
    : null;
  if (!digest || !digest.equals(crypto.createHash(hash).update(tstBytes).digest()))
    throw new TokenError('the token signs other content');
  const signedPart = signedAttributesAsSigned(token);
  if (!crypto.verify(hash, signedPart, tsa.x509.publicKey, Buffer.from(signerInfo.signature.buffer)))
    throw new TokenError('its signature does not verify');

  const eku = tsa.asn.tbsCertificate.extensions?.find((e) => e.extnID === OID.extKeyUsage);
  const purposes = eku ? AsnConvert.parse(eku.extnValue, ExtendedKeyUsage) : [];
  if (!eku?.critical || purposes.length !== 1 || purposes[0] !== OID.timeStamping)
    throw new TokenError('the signer is not a time-stamping certificate (extendedKeyUsage critical, timeStamping only)');
  const chain = buildChain(tsa, certs, tst.genTime, trust);
  return { time: tst.genTime, tsa, chain };
}
