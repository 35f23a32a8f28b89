import { sql } from 'kysely';
import type { Trx } from '../db/index';
import type { Actor } from '../audit';
import { audit } from '../audit';
import { decryptSecret, encryptSecret, generateKey } from '../crypto';
import type { DeveloperKeys, RotatableKey } from '../contract/developers';

// Each account's credentials: a public widget key (wk_), a secret API key (sk_) and the secret
// that signs its webhooks (whsec_). They are made with the account (and for accounts older than
// that rule by migration 0640), never by reading them: a read must not write, least of all an
// audit entry in the reader's name. The two secrets are kept encrypted with ENCRYPTION_KEY.

export const KEY_PREFIXES = { widget: 'wk', secret: 'sk', webhook: 'whsec' } as const;

/** Makes an account's keys, inside the transaction that creates the account; true if it made them. */
export async function createDeveloperKeys(trx: Trx, accountId: string, encryptionKey: string): Promise<boolean> {
  const created = await trx
    .insertInto('developer_keys')
    .values({
      account_id: accountId,
      widget_key: generateKey(KEY_PREFIXES.widget),
      secret_key_encrypted: encryptSecret(generateKey(KEY_PREFIXES.secret), encryptionKey),
      webhook_secret_encrypted: encryptSecret(generateKey(KEY_PREFIXES.webhook), encryptionKey),
    })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .returning('account_id')
    .executeTakeFirst();
  return Boolean(created);
}

/** The account's keys; every account has them from its creation on. */
export async function developerKeys(trx: Trx, accountId: string, encryptionKey: string): Promise<DeveloperKeys> {
  const row = await trx.selectFrom('developer_keys').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new Error(`account ${accountId} has no developer keys: were the migrations applied with ENCRYPTION_KEY?`);
  return {
    widgetKey: row.widget_key,
    secretKey: decryptSecret(row.secret_key_encrypted, encryptionKey),
    webhookSecret: decryptSecret(row.webhook_secret_encrypted, encryptionKey),
    revealed: true,
  };
}

const ROTATION = {
  secretKey: { column: 'secret_key_encrypted', prefix: KEY_PREFIXES.secret, description: 'Rotated the secret key', event: 'developer.secret-key-rotated' },
  webhookSecret: { column: 'webhook_secret_encrypted', prefix: KEY_PREFIXES.webhook, description: 'Rotated the webhook secret', event: 'developer.webhook-secret-rotated' },
} as const;

/**
 * Replaces one secret with a fresh one, audited in the same transaction, and answers the keys.
 */
export async function rotateDeveloperKey(trx: Trx, accountId: string, encryptionKey: string, actor: Actor, key: RotatableKey): Promise<DeveloperKeys> {
  const { column, prefix, description, event } = ROTATION[key];
  await trx
    .updateTable('developer_keys')
    .set({ [column]: encryptSecret(generateKey(prefix), encryptionKey) })
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  await audit(trx, accountId, actor, { namespace: 'global', description, event });
  return developerKeys(trx, accountId, encryptionKey);
}

/** The webhook signing secret for outbound deliveries (null until the account has keys). */
export async function webhookSecretOf(trx: Trx, accountId: string, encryptionKey: string): Promise<string | null> {
  const row = await sql<{ webhook_secret_encrypted: string }>`select webhook_secret_encrypted from developer_keys where account_id = ${accountId}`.execute(trx);
  const stored = row.rows[0]?.webhook_secret_encrypted;
  return stored ? decryptSecret(stored, encryptionKey) : null;
}
