// Developer keys used to be made the first time someone opened Developers, which wrote an audit
// entry in that viewer's name. They are now made with the account; this gives every older
// account its keys. The secrets are encrypted with ENCRYPTION_KEY, which SQL does not have, so
// this migration is code run with the server's configuration.
import { sql as query } from 'kysely';
import { encryptSecret, generateKey } from '../../crypto';
import { KEY_PREFIXES } from '../../developers/service';
import { audit } from '../../audit';
import type { MigrationContext } from './types';
import type { Trx } from '../index';

export const id = '0640_developer_keys_with_account';

export const sql = '';

export async function run(trx: Trx, context: MigrationContext): Promise<void> {
  const missing = await query<{ id: string }>`select a.id from accounts a where not exists (select 1 from developer_keys k where k.account_id = a.id)`.execute(trx);
  if (!missing.rows.length) return;
  if (!context.encryptionKey) throw new Error(`${id}: ${missing.rows.length} accounts need developer keys, which needs ENCRYPTION_KEY`);
  for (const { id: accountId } of missing.rows) {
    // The columns as they are at this migration: later migrations add more (and fill them), so
    // this step must not call today's createDeveloperKeys.
    const key = context.encryptionKey;
    const created = await query`insert into developer_keys (account_id, widget_key, secret_key_encrypted, webhook_secret_encrypted)
      values (${accountId}, ${generateKey(KEY_PREFIXES.widget)}, ${encryptSecret(generateKey(KEY_PREFIXES.secret), key)}, ${encryptSecret(generateKey(KEY_PREFIXES.webhook), key)})
      on conflict (account_id) do nothing`.execute(trx);
    if (Number(created.numAffectedRows ?? 0) > 0) {
      // by the provider (no admin): nobody on the account did this
      await audit(trx, accountId, null, { namespace: 'global', description: 'Generated the developer keys', event: 'developer.keys-created' });
    }
  }
}
