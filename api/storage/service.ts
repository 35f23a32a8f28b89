import type * as v from 'valibot';
import type { Deps } from '../deps';
import type { Config } from '../config';
import { audit, type Actor } from '../audit';
import { urlScheme } from '../contract/common';
import {
  S3_SECRET_REENTER,
  S3_SECRET_REQUIRED,
  type S3Settings,
  type storageBodySchema,
  type storageTestBodySchema,
  type StorageTestAnswer,
  type StorageView,
} from '../contract/storage';
import { ApiError } from '../http/errors';
import { checkUrl, isAllowlisted, OutboundError, outboundPolicy } from '../integrations/outbound';
import { probe, S3Failure, type S3Target } from './s3';
import { objectPrefix, sealSecret, storageSettings, storageView, type StorageSettings } from './settings';
import { storageRetentionChanged } from './retention-grace';

// Settings > Storage: where the account's files go and how long each kind is kept. The secret
// access key is write-only; a blank one keeps the stored secret only while endpoint, bucket and
// access key stay those it was entered for.

type StorageBody = v.InferOutput<ReturnType<typeof storageBodySchema>>;
type StorageTestBody = v.InferOutput<ReturnType<typeof storageTestBodySchema>>;

const ENDPOINT_HTTPS = 'Endpoint must start with https://';

/** The endpoint is one the server may call: https (http only for allowlisted hosts), public address. */
function checkEndpoint(config: Config, endpoint: string): void {
  const url = new URL(endpoint);
  if (urlScheme(endpoint) !== 'https' && !isAllowlisted(outboundPolicy(config), url.hostname, url.port || '80')) {
    throw new ApiError(400, 'VALIDATION_FAILED', ENDPOINT_HTTPS, { 's3.endpoint': ENDPOINT_HTTPS });
  }
  try {
    checkUrl(endpoint, outboundPolicy(config));
  } catch (err) {
    if (err instanceof OutboundError) throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message, { 's3.endpoint': err.message });
    throw err;
  }
}

/** The S3 target the typed fields describe, with the stored secret when it may be kept. */
function resolveTarget(config: Config, s3: S3Settings, stored: StorageSettings): { target: S3Target; keptSecret: boolean } {
  const endpoint = s3.endpoint.replace(/\/+$/, '');
  checkEndpoint(config, endpoint);
  const fields = { endpoint, region: s3.region, bucket: s3.bucket, accessKeyId: s3.accessKeyId, pathStyle: s3.pathStyle };
  if (s3.secretAccessKey) return { target: { ...fields, secretAccessKey: s3.secretAccessKey }, keptSecret: false };
  const kept = stored.target;
  if (!kept) throw new ApiError(400, 'VALIDATION_FAILED', S3_SECRET_REQUIRED, { 's3.secretAccessKey': S3_SECRET_REQUIRED });
  if (kept.endpoint !== endpoint || kept.bucket !== s3.bucket || kept.accessKeyId !== s3.accessKeyId) {
    throw new ApiError(400, 'SECRET_REENTRY_REQUIRED', S3_SECRET_REENTER, { 's3.secretAccessKey': S3_SECRET_REENTER });
  }
  return { target: { ...fields, secretAccessKey: kept.secretAccessKey }, keptSecret: true };
}

const BACKEND_TITLES = { database: 'the database', s3: 'an S3-compatible bucket' } as const;

export async function readStorage(deps: Pick<Deps, 'db' | 'config'>, accountId: string): Promise<StorageView> {
  return storageView(await deps.db.tenant(accountId, (trx) => storageSettings(deps.config, trx, accountId)));
}

/** Saves the backend, its bucket and the retention days; the audit entry says what changed. */
export async function saveStorage(
  deps: Pick<Deps, 'db' | 'config' | 'now'>,
  accountId: string,
  actor: Actor,
  body: StorageBody,
): Promise<StorageView> {
  return deps.db.tenant(accountId, async (trx) => {
    const stored = await storageSettings(deps.config, trx, accountId);
    const retention = { ...stored.retention, ...body.retention };
    let s3Values = {};
    let kept = false;
    if (body.backend === 's3') {
      const s3 = body.s3 as S3Settings;
      const resolved = resolveTarget(deps.config, s3, stored);
      kept = resolved.keptSecret;
      const t = resolved.target;
      s3Values = {
        s3_endpoint: t.endpoint,
        s3_region: t.region,
        s3_bucket: t.bucket,
        s3_access_key_id: t.accessKeyId,
        s3_path_style: t.pathStyle,
        s3_secret_encrypted: sealSecret(deps.config, {
          secret: t.secretAccessKey,
          endpoint: t.endpoint,
          bucket: t.bucket,
          accessKeyId: t.accessKeyId,
        }),
      };
    }
    // a kind kept forever is left out (the column's rule: a missing kind is kept)
    const days = Object.fromEntries(Object.entries(retention).filter(([, d]) => d !== null)) as Record<string, number>;
    const values = {
      backend: body.backend,
      retention: JSON.stringify(days) as unknown as Record<string, number>,
      updated_at: deps.now(),
      ...s3Values,
    };
    await trx
      .insertInto('storage_settings')
      .values({ account_id: accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
      .execute();
    // a kind tightened here runs first 30 days later, as on Customer data (dry run shown there)
    await storageRetentionChanged(trx, accountId, stored.retention, retention, deps.now());
    const changes: string[] = [];
    if (stored.backend !== body.backend) changes.push(`files now go to ${BACKEND_TITLES[body.backend]}`);
    if (body.backend === 's3')
      changes.push(
        `S3 bucket ${(body.s3 as S3Settings).bucket} at ${new URL((body.s3 as S3Settings).endpoint).host}${kept ? ' (kept the stored secret)' : ''}`,
      );
    changes.push(
      `retention: ${Object.entries(retention)
        .map(([k, d]) => `${k} ${d === null ? 'kept' : `${d} days`}`)
        .join(', ')}`,
    );
    await audit(trx, accountId, actor, {
      namespace: 'global',
      description: `Updated storage settings: ${changes.join('; ')}`,
      event: 'storage.updated',
    });
    return storageView(await storageSettings(deps.config, trx, accountId));
  });
}

/** Tries the bucket the fields describe (outside any transaction); the try is audited, whatever its outcome. */
export async function testStorage(
  deps: Pick<Deps, 'db' | 'config'>,
  accountId: string,
  actor: Actor,
  body: StorageTestBody,
): Promise<StorageTestAnswer> {
  const stored = await deps.db.tenant(accountId, (trx) => storageSettings(deps.config, trx, accountId));
  const { target } = resolveTarget(deps.config, body.s3 as S3Settings, stored);
  // the probe talks to the bucket outside any transaction
  let answer: StorageTestAnswer;
  try {
    answer = await probe(deps.config, target, objectPrefix(accountId));
  } catch (err) {
    if (err instanceof S3Failure && err.code === 'TARGET_NOT_ALLOWED')
      throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message, { 's3.endpoint': err.message });
    throw err;
  }
  await deps.db.tenant(accountId, (trx) =>
    audit(trx, accountId, actor, {
      namespace: 'global',
      description: `Tested the S3 storage connection to bucket ${target.bucket} at ${new URL(target.endpoint).host}: ${answer.ok ? 'succeeded' : `failed (${answer.code})`}`,
      event: 'storage.tested',
    }),
  );
  return answer;
}
