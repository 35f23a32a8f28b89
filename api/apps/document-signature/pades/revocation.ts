import crypto from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { CertificateList, CRLDistributionPoints } from '@peculiar/asn1-x509';
import { outboundFetch, type OutboundPolicy } from '../../../integrations/outbound';
import { OID, der, type Cert } from './asn1';

// Revocation data for the DSS: the CRL each certificate names in its CRL distribution points,
// fetched once per address, kept only when its issuer's signature verifies. A CRL that cannot
// be had leaves that certificate without revocation data (the seal is then B-T with the
// certificates, not B-LT); it never stops a seal. OCSP is not asked (see docs/signatures.md).

const SIG_HASH: Record<string, string> = {
  [OID.sha256WithRSA]: 'sha256',
  [OID.sha384WithRSA]: 'sha384',
  [OID.sha512WithRSA]: 'sha512',
  [OID.ecdsaWithSHA256]: 'sha256',
  [OID.ecdsaWithSHA384]: 'sha384',
  [OID.ecdsaWithSHA512]: 'sha512',
};

function crlUrls(cert: Cert): string[] {
  const ext = cert.asn.tbsCertificate.extensions?.find((e) => e.extnID === OID.crlDistributionPoints);
  if (!ext) return [];
  const points = AsnConvert.parse(ext.extnValue, CRLDistributionPoints);
  return points
    .flatMap((p) => p.distributionPoint?.fullName ?? [])
    .flatMap((n) =>
      n.uniformResourceIdentifier && /^https?:\/\//.test(n.uniformResourceIdentifier) ? [n.uniformResourceIdentifier] : [],
    );
}

function signedBy(crl: Buffer, issuer: Cert): boolean {
  const list = AsnConvert.parse(crl, CertificateList);
  const hash = SIG_HASH[list.signatureAlgorithm.algorithm];
  if (!hash || !der(list.tbsCertList.issuer).equals(der(issuer.asn.tbsCertificate.subject))) return false;
  return crypto.verify(
    hash,
    list.tbsCertListRaw ? Buffer.from(list.tbsCertListRaw) : der(list.tbsCertList),
    issuer.x509.publicKey,
    Buffer.from(list.signature),
  );
}

/** CRLs for the certificates (each with its issuer among `certs`); `complete` when every non-root one has one. */
export async function fetchCrls(
  certs: Cert[],
  policy: OutboundPolicy & { timeoutMs: number },
): Promise<{ crls: Buffer[]; complete: boolean }> {
  const byUrl = new Map<string, Buffer | null>();
  const crls: Buffer[] = [];
  let complete = true;
  for (const cert of certs) {
    if (cert.x509.checkIssued(cert.x509)) continue; // a root is trusted as such, not by a CRL
    const issuer = certs.find((c) => c !== cert && cert.x509.checkIssued(c.x509));
    let found = false;
    for (const url of issuer ? crlUrls(cert) : []) {
      if (!byUrl.has(url)) {
        try {
          const res = await outboundFetch(url, {}, { ...policy, plainHttp: true, maxBytes: 4 * 1024 * 1024 });
          byUrl.set(url, res.ok && signedBy(res.body, issuer!) ? res.body : null);
        } catch {
          byUrl.set(url, null);
        }
      }
      const crl = byUrl.get(url);
      if (crl) {
        if (!crls.includes(crl)) crls.push(crl);
        found = true;
        break;
      }
    }
    if (!found) complete = false;
  }
  return { crls, complete };
}
