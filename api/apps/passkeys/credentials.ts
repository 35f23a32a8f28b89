import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { PASSKEY_CREDENTIAL_PAGE, type PasskeyCredential, type PasskeyCredentialQuery } from '../../contract/apps/passkeys';
import { authenticatorName } from './authenticators';
import type { CredentialRow } from './service';

// The Enrollments page's list: an account's passkeys, newest first, a keyset page at a time.

export function credentialOf(r: CredentialRow): PasskeyCredential {
  return {
    id: r.id,
    customerRef: r.customer_ref,
    displayName: r.display_name,
    credentialId: r.credential_id,
    aaguid: r.aaguid,
    authenticator: authenticatorName(r.aaguid),
    synced: r.backup_eligible,
    backedUp: r.backed_up,
    transports: r.transports,
    rpId: r.rp_id,
    createdAt: new Date(r.created_at).toISOString(),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
    signCount: Number(r.counter),
    revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
  };
}

/** One page of the list, and the key of the next one (null on the last page). */
export async function listCredentials(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  q: PasskeyCredentialQuery,
): Promise<{ credentials: PasskeyCredential[]; lastKey: string | null }> {
  const at = q.lastKey ? q.lastKey.lastIndexOf('_') : -1;
  const rows = await deps.db.tenant(accountId, (trx) =>
    sql<
      CredentialRow & { key_ts: string }
    >`select *, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts
      from passkey_credentials where account_id = ${accountId}
      ${q.q ? sql`and customer_ref = ${q.q}` : sql``}
      ${q.revoked === 'true' ? sql`and revoked_at is not null` : q.revoked === 'false' ? sql`and revoked_at is null` : sql``}
      ${q.lastKey ? sql`and (created_at, id) < (${q.lastKey.slice(0, at)}::timestamptz, ${q.lastKey.slice(at + 1)}::uuid)` : sql``}
      order by created_at desc, id desc limit ${PASSKEY_CREDENTIAL_PAGE + 1}`.execute(trx),
  );
  const shown = rows.rows.slice(0, PASSKEY_CREDENTIAL_PAGE);
  const last = rows.rows.length > PASSKEY_CREDENTIAL_PAGE ? shown[shown.length - 1]! : null;
  return { credentials: shown.map(credentialOf), lastKey: last ? `${last.key_ts}_${last.id}` : null };
}
