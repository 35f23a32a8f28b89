import type { Config } from '../config';
import { RETENTION_KINDS, type Retention, type RetentionKind, type StorageBackend, type StorageView } from '../contract/storage';
import { decryptSecret, encryptSecret } from '../crypto';
import type { Trx } from '../db/index';
import type { S3Target } from './s3';

// An account's storage settings as the server uses them. The S3 secret is stored encrypted
// together with the endpoint, bucket and access key it was entered for: it is only ever sent
// to that endpoint, for that bucket, with that key (a changed column leaves no usable secret).

type Bound = { secret: string; endpoint: string; bucket: string; accessKeyId: string };

export function sealSecret(config: Pick<Config, 'encryptionKey'>, bound: Bound): string {
  return encryptSecret(JSON.stringify(bound), config.encryptionKey);
}

export type StorageSettings = {
  backend: StorageBackend;
  /** the S3 fields as saved, secret excluded; null when S3 was never set up */
  s3: { endpoint: string; region: string; bucket: string; accessKeyId: string; pathStyle: boolean } | null;
  /** the usable S3 target: fields and a secret bound to them; null when there is none */
  target: S3Target | null;
  retention: Retention;
  updatedAt: Date | null;
};

/** The days Storage settings keep for each kind (anything not a positive whole number keeps). */
export function storedRetention(stored: Record<string, unknown> | null | undefined): Retention {
  return Object.fromEntries(
    RETENTION_KINDS.map(({ kind }) => {
      const days = stored?.[kind];
      return [kind, typeof days === 'number' && Number.isInteger(days) && days > 0 ? days : null];
    }),
  ) as Retention;
}

export async function storageSettings(
  config: Pick<Config, 'encryptionKey'>,
  trx: Trx,
  accountId: string,
): Promise<StorageSettings> {
  const row = await trx.selectFrom('storage_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (!row) return { backend: 'database', s3: null, target: null, retention: storedRetention(null), updatedAt: null };
  const s3 =
    row.s3_endpoint && row.s3_bucket && row.s3_access_key_id
      ? {
          endpoint: row.s3_endpoint,
          region: row.s3_region ?? 'us-east-1',
          bucket: row.s3_bucket,
          accessKeyId: row.s3_access_key_id,
          pathStyle: row.s3_path_style,
        }
      : null;
  let target: S3Target | null = null;
  if (s3 && row.s3_secret_encrypted) {
    const bound = JSON.parse(decryptSecret(row.s3_secret_encrypted, config.encryptionKey)) as Bound;
    if (bound.endpoint === s3.endpoint && bound.bucket === s3.bucket && bound.accessKeyId === s3.accessKeyId)
      target = { ...s3, secretAccessKey: bound.secret };
  }
  return { backend: row.backend, s3, target, retention: storedRetention(row.retention), updatedAt: row.updated_at };
}

export function storageView(settings: StorageSettings): StorageView {
  return {
    backend: settings.backend,
    s3: settings.s3 ? { ...settings.s3, secretStored: settings.target !== null } : null,
    retention: settings.retention,
    updatedAt: settings.updatedAt ? new Date(settings.updatedAt).toISOString() : null,
  };
}

/**
 * Days to keep a kind of content for the account, or null to keep it: the apps' redaction jobs
 * redact what is older than this.
 */
export async function retentionDays(trx: Trx, accountId: string, kind: RetentionKind): Promise<number | null> {
  const row = await trx.selectFrom('storage_settings').select('retention').where('account_id', '=', accountId).executeTakeFirst();
  return storedRetention(row?.retention)[kind];
}

/** Where an account's objects go inside its bucket: one prefix per account, then per app. */
export function objectPrefix(accountId: string): string {
  return `switchboard/${accountId}/`;
}
