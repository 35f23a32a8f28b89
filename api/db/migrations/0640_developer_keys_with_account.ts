// Developer keys used to be made the first time someone opened Developers, which wrote an audit
// entry in that viewer's name. They are now made with the account; this gives every older
// account its keys. The secrets are encrypted with ENCRYPTION_KEY, which SQL does not have, so
// this migration is code run with the server's configuration.
import { sql as query } from 'kysely';
import { encryptSecret, generateKey } from '../../crypto';
import type { MigrationContext } from './types';
import type { Trx } from '../index';

export const id = '0640_developer_keys_with_account';

// A migration is frozen when it ships, so it imports no domain code (test/unit/import-graph.test.ts).
// Deliberate duplicates, as they were when this one shipped: the keys' prefixes
// (api/developers/service.ts, KEY_PREFIXES) and the provider's audit entry (api/audit.ts, audit()).
const KEY_PREFIXES = { widget: 'wk', secret: 'sk', webhook: 'whsec' } as const;

/** One audit entry by the provider (no admin): the entry, the account's running total and the log outbox. */
async function auditByProvider(trx: Trx, accountId: string, description: string, event: string): Promise<void> {
  const payload = JSON.stringify({ accountId, namespace: 'global', event, description, admin: null });
  await query`with entry as (
      insert into audit_log (account_id, admin_id, admin_first_name, admin_last_name, namespace, description, event)
      values (${accountId}, null, null, null, 'global', ${description}, ${event})
      returning id, ts
    ), counted as (
      insert into audit_counts as c (account_id, count) values (${accountId}, 1)
      on conflict (account_id) do update set count = c.count + 1
    )
    insert into log_outbox (account_id, destination, payload)
    select d.account_id, d.destination, ${payload}::jsonb || jsonb_build_object('id', entry.id, 'timestamp', to_char(entry.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    from logging_destinations d, entry where d.account_id = ${accountId}`.execute(trx);
}

export const sql = '';

export async function run(trx: Trx, context: MigrationContext): Promise<void> {
  const missing = await query<{
    id: string;
  }>`select a.id from accounts a where not exists (select 1 from developer_keys k where k.account_id = a.id)`.execute(trx);
  if (!missing.rows.length) return;
  if (!context.encryptionKey)
    throw new Error(`${id}: ${missing.rows.length} accounts need developer keys, which needs ENCRYPTION_KEY`);
  for (const { id: accountId } of missing.rows) {
    // The columns as they are at this migration: later migrations add more (and fill them), so
    // this step must not call today's createDeveloperKeys.
    const key = context.encryptionKey;
    const created =
      await query`insert into developer_keys (account_id, widget_key, secret_key_encrypted, webhook_secret_encrypted)
      values (${accountId}, ${generateKey(KEY_PREFIXES.widget)}, ${encryptSecret(generateKey(KEY_PREFIXES.secret), key)}, ${encryptSecret(generateKey(KEY_PREFIXES.webhook), key)})
      on conflict (account_id) do nothing`.execute(trx);
    if (Number(created.numAffectedRows ?? 0) > 0) {
      // by the provider (no admin): nobody on the account did this
      await auditByProvider(trx, accountId, 'Generated the developer keys', 'developer.keys-created');
    }
  }
}
