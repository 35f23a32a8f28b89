import crypto from 'node:crypto';
import tls from 'node:tls';
import { sql, type Selectable } from 'kysely';
import { AsnConvert } from '@peculiar/asn1-schema';
import { BasicConstraints, ExtendedKeyUsage, KeyUsage, KeyUsageFlags } from '@peculiar/asn1-x509';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import type { SigSigningCertificatesTable } from '../../db/schema';
import { audit, type Actor } from '../../audit';
import { ApiError } from '../../http/errors';
import { decryptSecret, encryptSecret } from '../../crypto';
import { SIG_APP, type SigCertificate, type SigCertificateUpload, type SigSigning } from '../../contract/apps/document-signature';
import { OID, certsFromPem, extension, type Cert } from './pades/asn1';
import { buildChain, ChainError } from './pades/chain';
import { KeyMaterialError, readPem, readPkcs12, type KeyMaterial } from './pades/key-material';
import { commonName, signingCertificate, type SigningCertificate } from './signing-certificate';
import { providerTsa } from './trusted-time';
import { accountDates } from '../../account-dates';

// An account's own signing certificate (Configuration > Signing). An upload is checked before
// anything is stored: the key opens, the certificate is its own, it may sign documents (key
// usage, extended key usage, not a CA), it is valid, its chain leads to a root, and the key is
// RSA of at least 2048 bits or an EC key on P-256 or P-384. The private key is kept encrypted at
// rest; the password only opens the upload and is never stored or returned.
//
// Rotation with overlap: a new certificate may be scheduled (activeFrom) while the current one
// still seals; at that time it takes over. The one it replaced stays listed as 'previous' until
// it expires or an admin removes it, so the seals it made stay explained.

type Row = Selectable<SigSigningCertificatesTable>;

const DOCUMENT_SIGNING_PURPOSES = new Set([
  '2.5.29.37.0', // anyExtendedKeyUsage
  '1.3.6.1.5.5.7.3.4', // emailProtection (what most personal and organisation certificates carry)
  '1.3.6.1.5.5.7.3.36', // id-kp-documentSigning (RFC 9336)
  '1.3.6.1.4.1.311.10.3.12', // Microsoft document signing
  '1.2.840.113583.1.1.5', // Adobe Authentic Documents Trust
]);

const invalid = (message: string) => new ApiError(400, 'CERTIFICATE_INVALID', message);
const day = (d: Date) => d.toISOString().slice(0, 10);

let publicRoots: Cert[] | null = null;
/** The public roots Node trusts: a chain may end at one without including it. */
function roots(): Cert[] {
  publicRoots ??= tls.rootCertificates.flatMap((pem) => {
    try {
      return certsFromPem(pem);
    } catch {
      return [];
    }
  });
  return publicRoots;
}

function keyType(key: crypto.KeyObject): string {
  const d = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') {
    if ((d.modulusLength ?? 0) < 2048) throw invalid(`The key is RSA ${d.modulusLength} bits: at least 2048 bits are required.`);
    return `RSA ${d.modulusLength}`;
  }
  if (key.asymmetricKeyType === 'ec') {
    if (d.namedCurve === 'prime256v1') return 'EC P-256';
    if (d.namedCurve === 'secp384r1') return 'EC P-384';
    throw invalid(`The key is on the curve ${d.namedCurve}: use P-256 or P-384.`);
  }
  throw invalid(`The key is of type ${key.asymmetricKeyType}: use RSA (2048 bits or more) or EC P-256.`);
}

function checkPurpose(cert: Cert): void {
  const constraints = extension(cert, OID.basicConstraints);
  if (constraints && AsnConvert.parse(constraints.extnValue, BasicConstraints).cA)
    throw invalid('This is a certification authority certificate: upload the certificate that signs documents.');
  const usage = extension(cert, OID.keyUsage);
  if (usage) {
    const flags = AsnConvert.parse(usage.extnValue, KeyUsage).toNumber();
    if (!(flags & KeyUsageFlags.digitalSignature) && !(flags & KeyUsageFlags.nonRepudiation))
      throw invalid('The certificate may not sign (its key usage has neither digitalSignature nor nonRepudiation).');
  }
  const eku = extension(cert, OID.extKeyUsage);
  if (eku) {
    const purposes = AsnConvert.parse(eku.extnValue, ExtendedKeyUsage);
    if (!purposes.some((p) => DOCUMENT_SIGNING_PURPOSES.has(p)))
      throw invalid(`The certificate is issued for other purposes (${purposes.join(', ')}), not for signing documents.`);
  }
}

/** Everything an upload must pass; the key, certificate and chain when it does. */
export function checkUpload(
  body: SigCertificateUpload,
  now: Date,
): KeyMaterial & { chain: Cert[]; keyType: string; activeFrom: Date } {
  let material: KeyMaterial;
  try {
    material =
      body.format === 'pkcs12' ? readPkcs12(Buffer.from(body.file, 'base64'), body.password) : readPem(body.pem, body.password);
  } catch (err) {
    if (err instanceof KeyMaterialError) throw invalid(err.message);
    throw invalid('The certificate or key cannot be read.');
  }
  const type = keyType(material.key);
  checkPurpose(material.certificate);
  const activeFrom = body.activeFrom ? new Date(body.activeFrom) : now;
  const notAfter = new Date(material.certificate.x509.validTo);
  if (notAfter.getTime() <= now.getTime()) throw invalid(`The certificate expired on ${day(notAfter)}.`);
  if (activeFrom.getTime() < now.getTime() - 60_000)
    throw new ApiError(400, 'VALIDATION_FAILED', 'activeFrom: choose now or a later time', {
      activeFrom: 'Choose now or a later time',
    });
  if (activeFrom.getTime() >= notAfter.getTime())
    throw new ApiError(
      400,
      'VALIDATION_FAILED',
      `activeFrom: the certificate expires on ${day(notAfter)}, before it would take over`,
      { activeFrom: `The certificate expires on ${day(notAfter)}` },
    );
  let chain: Cert[];
  try {
    chain = buildChain(
      material.certificate,
      [...material.others, ...roots()],
      activeFrom.getTime() > now.getTime() ? activeFrom : now,
    );
  } catch (err) {
    if (err instanceof ChainError) throw invalid(err.message);
    throw err;
  }
  return { ...material, chain, keyType: type, activeFrom };
}

const fingerprint = (c: Cert) => c.x509.fingerprint256;
const dn = (s: string) => s.split('\n').join(', ');

function stateOf(row: Row, active: Row | null, now: Date): SigCertificate['state'] {
  if (new Date(row.not_after).getTime() <= now.getTime()) return 'expired';
  if (active && row.id === active.id) return 'active';
  if (new Date(row.active_from).getTime() > now.getTime()) return 'scheduled';
  return 'previous';
}

function certificateOf(row: Row, active: Row | null, now: Date): SigCertificate {
  return {
    id: row.id,
    subject: row.subject,
    issuer: row.issuer,
    serial: row.serial,
    fingerprint: row.fingerprint,
    keyType: row.key_type,
    notBefore: new Date(row.not_before).toISOString(),
    notAfter: new Date(row.not_after).toISOString(),
    activeFrom: new Date(row.active_from).toISOString(),
    uploadedBy: row.uploaded_by,
    uploadedAt: new Date(row.uploaded_at).toISOString(),
    state: stateOf(row, active, now),
  };
}

async function currentRows(trx: Trx, accountId: string): Promise<Row[]> {
  return (
    await sql<Row>`select * from sig_signing_certificates where account_id = ${accountId} and removed_at is null order by active_from desc, uploaded_at desc`.execute(
      trx,
    )
  ).rows;
}

/** The certificate that seals at `now`: the latest to take over that is valid. */
function activeRow(rows: Row[], now: Date): Row | null {
  const t = now.getTime();
  return (
    rows.find(
      (r) =>
        new Date(r.active_from).getTime() <= t && new Date(r.not_before).getTime() <= t && new Date(r.not_after).getTime() > t,
    ) ?? null
  );
}

/** The account's own certificate that seals now, or null (the provider's seals). */
export async function accountSigningCertificate(
  deps: Deps,
  trx: Trx,
  accountId: string,
  now: Date,
): Promise<SigningCertificate | null> {
  const row = activeRow(await currentRows(trx, accountId), now);
  if (!row) return null;
  const key = crypto.createPrivateKey(decryptSecret(row.encrypted_key, deps.config.encryptionKey));
  const [certificate, ...chain] = certsFromPem(row.chain_pem);
  return { signer: { key, certificate: certificate!, chain }, subject: row.subject, owner: 'account', certificateId: row.id };
}

export async function signingOverview(deps: Deps, accountId: string): Promise<SigSigning> {
  const now = deps.now();
  const rows = await deps.db.tenant(accountId, (trx) => currentRows(trx, accountId));
  const active = activeRow(rows, now);
  let provider: SigSigning['providerCertificate'];
  try {
    const cert = signingCertificate(deps.config);
    provider = { subject: cert.subject, development: cert.owner === 'development' };
  } catch {
    provider = { subject: 'not configured', development: false };
  }
  return {
    certificates: rows.map((r) => certificateOf(r, active, now)),
    providerCertificate: provider,
    timestampAuthority: providerTsa(deps.config)?.url ?? null,
  };
}

export async function uploadSigningCertificate(
  deps: Deps,
  accountId: string,
  body: SigCertificateUpload,
  actor: Actor,
): Promise<SigCertificate> {
  const now = deps.now();
  const checked = checkUpload(body, now);
  const leaf = checked.certificate;
  const subject = commonName(leaf.x509);
  const uploadedBy = actor ? `${actor.firstName} ${actor.lastName}`.trim() : 'Provider staff';
  return deps.db.tenant(accountId, async (trx) => {
    const rows = await currentRows(trx, accountId);
    if (rows.some((r) => r.fingerprint === fingerprint(leaf)))
      throw new ApiError(409, 'CERTIFICATE_EXISTS', 'This certificate is already uploaded.');
    const row = (
      await sql<Row>`insert into sig_signing_certificates (account_id, subject, issuer, serial, fingerprint, key_type, not_before, not_after, active_from, encrypted_key, chain_pem, uploaded_by, uploaded_at)
        values (${accountId}, ${subject}, ${dn(leaf.x509.issuer)}, ${leaf.x509.serialNumber}, ${fingerprint(leaf)}, ${checked.keyType}, ${new Date(leaf.x509.validFrom)}, ${new Date(leaf.x509.validTo)}, ${checked.activeFrom},
          ${encryptSecret(checked.key.export({ type: 'pkcs8', format: 'pem' }).toString(), deps.config.encryptionKey)},
          ${[leaf, ...checked.chain].map((c) => c.x509.toString()).join('')}, ${uploadedBy}, ${now})
        returning *`.execute(trx)
    ).rows[0]!;
    const when =
      checked.activeFrom.getTime() > now.getTime() + 60_000
        ? `; it takes over on ${(await accountDates(trx, accountId)).moment(checked.activeFrom)}`
        : '';
    await audit(trx, accountId, actor, {
      namespace: SIG_APP,
      description: `Uploaded the signing certificate ${subject} (${checked.keyType}, issued by ${commonName(checked.chain[0]?.x509 ?? leaf.x509)}, valid until ${day(new Date(leaf.x509.validTo))})${when}`,
      event: 'signing-certificate.uploaded',
      at: now,
    });
    return certificateOf(
      row,
      activeRow(
        [row, ...rows].sort((a, b) => new Date(b.active_from).getTime() - new Date(a.active_from).getTime()),
        now,
      ),
      now,
    );
  });
}

export async function removeSigningCertificate(deps: Deps, accountId: string, id: string, actor: Actor): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    // the key is erased; the certificate itself stays, so the seals it made stay explained
    const row = (
      await sql<Row>`update sig_signing_certificates set removed_at = ${now}, encrypted_key = '', removed_by = ${actor ? `${actor.firstName} ${actor.lastName}` : 'Provider staff'}
      where account_id = ${accountId} and id = ${id} and removed_at is null returning *`.execute(trx)
    ).rows[0];
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such signing certificate.');
    await audit(trx, accountId, actor, {
      namespace: SIG_APP,
      description: `Removed the signing certificate ${row.subject} (serial ${row.serial})`,
      event: 'signing-certificate.removed',
      at: now,
    });
  });
}
