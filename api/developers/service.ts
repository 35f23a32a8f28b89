import { sql } from 'kysely';
import type { Database, Trx } from '../db/index';
import type { Actor } from '../audit';
import { audit } from '../audit';
import { decryptSecret, encryptSecret, generateKey, sha256Hex } from '../crypto';
import type { DeveloperKeys, RotatableKey } from '../contract/developers';

// Each account's credentials: a public widget key (wk_), a secret API key (sk_) and the secret
// that signs its webhooks (whsec_). They are made with the account (and for accounts older than
// that rule by migration 0640), never by reading them: a read must not write, least of all an
// audit entry in the reader's name. The two secrets are kept encrypted with ENCRYPTION_KEY.

export const KEY_PREFIXES = { widget: 'wk', secret: 'sk', webhook: 'whsec' } as const;

/** Makes an account's keys, inside the transaction that creates the account; true if it made them. */
export async function createDeveloperKeys(trx: Trx, accountId: string, encryptionKey: string): Promise<boolean> {
  const secretKey = generateKey(KEY_PREFIXES.secret);
  const created = await trx
    .insertInto('developer_keys')
    .values({
      account_id: accountId,
      widget_key: generateKey(KEY_PREFIXES.widget),
      secret_key_encrypted: encryptSecret(secretKey, encryptionKey),
      secret_key_hash: sha256Hex(secretKey),
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
  secretKey: {
    column: 'secret_key_encrypted',
    prefix: KEY_PREFIXES.secret,
    description: 'Rotated the secret key',
    event: 'developer.secret-key-rotated',
  },
  webhookSecret: {
    column: 'webhook_secret_encrypted',
    prefix: KEY_PREFIXES.webhook,
    description: 'Rotated the webhook secret',
    event: 'developer.webhook-secret-rotated',
  },
} as const;

/**
 * Replaces one secret with a fresh one, audited in the same transaction, and answers the keys.
 */
export async function rotateDeveloperKey(
  trx: Trx,
  accountId: string,
  encryptionKey: string,
  actor: Actor,
  key: RotatableKey,
): Promise<DeveloperKeys> {
  const { column, prefix, description, event } = ROTATION[key];
  const fresh = generateKey(prefix);
  // The old secret key stops at once (its hash no longer matches); the old webhook secret keeps
  // signing beside the new one for 24 h so receivers can switch without losing events.
  const extra =
    key === 'secretKey'
      ? { secret_key_hash: sha256Hex(fresh) }
      : { webhook_secret_prev_encrypted: sql<string>`webhook_secret_encrypted`, webhook_secret_rotated_at: sql<Date>`now()` };
  await trx
    .updateTable('developer_keys')
    .set({ [column]: encryptSecret(fresh, encryptionKey), ...extra })
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  await audit(trx, accountId, actor, { namespace: 'global', description, event });
  return developerKeys(trx, accountId, encryptionKey);
}

/** The webhook signing secret for outbound deliveries (null until the account has keys). */
export async function webhookSecretOf(trx: Trx, accountId: string, encryptionKey: string): Promise<string | null> {
  const row = await sql<{
    webhook_secret_encrypted: string;
  }>`select webhook_secret_encrypted from developer_keys where account_id = ${accountId}`.execute(trx);
  const stored = row.rows[0]?.webhook_secret_encrypted;
  return stored ? decryptSecret(stored, encryptionKey) : null;
}

/**
 * The secrets that sign a webhook now: the current one, and the previous one for 24 h after a
 * rotation (both v1 values go in X-Signature).
 */
export async function webhookSigningSecrets(trx: Trx, accountId: string, encryptionKey: string, now: Date): Promise<string[]> {
  const row = await trx
    .selectFrom('developer_keys')
    .select(['webhook_secret_encrypted', 'webhook_secret_prev_encrypted', 'webhook_secret_rotated_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return [];
  const secrets = [decryptSecret(row.webhook_secret_encrypted, encryptionKey)];
  const rotatedAt = row.webhook_secret_rotated_at ? new Date(row.webhook_secret_rotated_at).getTime() : 0;
  if (row.webhook_secret_prev_encrypted && now.getTime() - rotatedAt < 24 * 3600_000) {
    secrets.push(decryptSecret(row.webhook_secret_prev_encrypted, encryptionKey));
  }
  return secrets;
}

/**
 * The account a secret key belongs to (null for wrong or rotated keys). Keys made before 0701
 * have no hash yet: they are hashed here once, on the first miss.
 */
export async function accountOfSecretKey(db: Database, secretKey: string, encryptionKey: string): Promise<string | null> {
  const hash = sha256Hex(secretKey);
  // every /api/v1 call asks this: a plain read in one message, no transaction
  const find = () =>
    db.systemRead((trx) =>
      trx.selectFrom('developer_keys').select('account_id').where('secret_key_hash', '=', hash).executeTakeFirst(),
    );
  const found = await find();
  if (found) return found.account_id;
  const unhashed = await db.system(async (trx) => {
    const rows = await trx
      .selectFrom('developer_keys')
      .select(['account_id', 'secret_key_encrypted'])
      .where('secret_key_hash', 'is', null)
      .execute();
    for (const r of rows) {
      await trx
        .updateTable('developer_keys')
        .set({ secret_key_hash: sha256Hex(decryptSecret(r.secret_key_encrypted, encryptionKey)) })
        .where('account_id', '=', r.account_id)
        .execute();
    }
    return rows.length;
  });
  return unhashed ? ((await find())?.account_id ?? null) : null;
}
