import type { Cert } from './asn1';

// Certificate paths: from a certificate up through the candidates given (each step checked by
// issuer name and signature, each certificate valid at the time asked) to a self-signed root.
// `anchors`, when given, are the only roots accepted (a TSA's configured CA); otherwise the
// path must end in a self-signed certificate among the candidates.

export class ChainError extends Error {}

const selfSigned = (c: Cert) => c.x509.checkIssued(c.x509) && c.x509.verify(c.x509.publicKey);
const validAt = (c: Cert, at: Date) =>
  new Date(c.x509.validFrom).getTime() <= at.getTime() && at.getTime() <= new Date(c.x509.validTo).getTime();
const subjectOf = (c: Cert) => c.x509.subject.replace(/\n/g, ', ');

/** The path above `leaf` (issuer first, root last), or ChainError saying what is wrong. */
export function buildChain(leaf: Cert, candidates: Cert[], at: Date, anchors?: Cert[]): Cert[] {
  const path: Cert[] = [];
  const isAnchor = (c: Cert) => (anchors ?? []).some((a) => a.x509.fingerprint256 === c.x509.fingerprint256);
  if (!validAt(leaf, at))
    throw new ChainError(
      `The certificate ${subjectOf(leaf)} is not valid on ${at.toISOString().slice(0, 10)} (valid ${leaf.x509.validFrom} to ${leaf.x509.validTo}).`,
    );
  let current = leaf;
  for (let depth = 0; depth < 8; depth++) {
    if (anchors ? isAnchor(current) : depth > 0 && selfSigned(current)) return path;
    if (selfSigned(current))
      throw new ChainError(
        anchors
          ? `The chain ends at ${subjectOf(current)}, which is not a trusted root.`
          : 'The certificate is self-signed: it must be issued by a certification authority.',
      );
    const pool = [...candidates, ...(anchors ?? [])];
    const issuer = pool.find((c) => c !== current && current.x509.checkIssued(c.x509) && current.x509.verify(c.x509.publicKey));
    if (!issuer)
      throw new ChainError(
        `The issuer of ${subjectOf(current)} (${current.x509.issuer.replace(/\n/g, ', ')}) is missing: include the whole chain.`,
      );
    if (!issuer.x509.ca) throw new ChainError(`${subjectOf(issuer)} is not a certification authority.`);
    if (!validAt(issuer, at))
      throw new ChainError(`The certificate ${subjectOf(issuer)} in the chain is not valid on ${at.toISOString().slice(0, 10)}.`);
    path.push(issuer);
    current = issuer;
  }
  throw new ChainError('The certificate chain is too long.');
}
