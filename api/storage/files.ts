import crypto from 'node:crypto';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import type { Readable } from 'node:stream';
import { ApiError } from '../http/errors';
import { deleteObject, deleteObjects, getObjectBytes, getObjectStream, putObject, S3Failure, type S3Target } from './s3';
import { objectPrefix, storageSettings } from './settings';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// One place where the apps keep files. Callers hand over bytes and get an id; where the bytes go
// (this database, or the account's S3-compatible bucket once storage settings say so) is decided
// here, so no app knows or cares. Reading is by id inside the account's own transaction, so row-
// level security keeps each account to its own files.

export type StoredFile = { id: string; contentType: string; size: number; sha256: string };
export type FileContent = StoredFile & { bytes: Buffer };

function unavailable(failure: S3Failure, doing: string): ApiError {
  if (failure.code === 'TARGET_NOT_ALLOWED')
    return new ApiError(422, 'TARGET_NOT_ALLOWED', `The storage endpoint cannot be called: ${failure.message}`);
  return new ApiError(502, 'STORAGE_UNAVAILABLE', `The file could not be ${doing} the account's S3 bucket: ${failure.message}`);
}

const notConfigured = () =>
  new ApiError(
    409,
    'STORAGE_NOT_CONFIGURED',
    'S3 storage has no usable settings: enter the endpoint, bucket and keys again in Storage settings.',
  );

/** The account's S3 target, for a file kept there; an answer that says why when there is none. */
async function targetFor(deps: Deps, trx: Trx, accountId: string): Promise<S3Target> {
  const settings = await storageSettings(deps.config, trx, accountId);
  if (!settings.target) throw notConfigured();
  return settings.target;
}

/**
 * Keeps a file where the account's storage settings say. With S3 the object is written before
 * the row, so a failed upload leaves nothing behind (a transaction rolled back after a
 * successful upload leaves an unreferenced object in the bucket).
 */
export async function putFile(
  deps: Deps,
  trx: Trx,
  accountId: string,
  file: { app: string; contentType: string; bytes: Uint8Array },
): Promise<StoredFile> {
  const bytes = Buffer.from(file.bytes);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const settings = await storageSettings(deps.config, trx, accountId);
  const base = {
    account_id: accountId,
    app: file.app,
    content_type: file.contentType,
    size: bytes.length,
    sha256,
    created_at: deps.now(),
  };
  let values: typeof base & {
    id?: string;
    backend: 'database' | 's3';
    bytes: Buffer | null;
    s3_bucket?: string;
    object_key?: string;
  };
  if (settings.backend === 's3') {
    if (!settings.target) throw notConfigured();
    const id = crypto.randomUUID();
    const key = `${objectPrefix(accountId)}${file.app.replace(/[^a-z0-9-]/gi, '_')}/${id}`;
    try {
      await putObject(deps.config, settings.target, key, { bytes, contentType: file.contentType, sha256 });
    } catch (err) {
      if (err instanceof S3Failure) throw unavailable(err, 'written to');
      throw err;
    }
    values = { ...base, id, backend: 's3', bytes: null, s3_bucket: settings.target.bucket, object_key: key };
  } else {
    values = { ...base, backend: 'database', bytes };
  }
  const row = await trx.insertInto('stored_files').values(values).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, contentType: file.contentType, size: bytes.length, sha256 };
}

type FileRow = {
  id: string;
  content_type: string;
  size: number;
  sha256: string;
  backend: 'database' | 's3';
  bytes: Buffer | null;
  s3_bucket: string | null;
  object_key: string | null;
};

async function fileRow(trx: Trx, accountId: string, id: string): Promise<FileRow | undefined> {
  return trx
    .selectFrom('stored_files')
    .select(['id', 'content_type', 'size', 'sha256', 'backend', 'bytes', 's3_bucket', 'object_key'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

const meta = (row: FileRow): StoredFile => ({ id: row.id, contentType: row.content_type, size: row.size, sha256: row.sha256 });

/** A file's bytes; null when there is no such file in this account or it was deleted. */
export async function readFile(deps: Deps, trx: Trx, accountId: string, id: string): Promise<FileContent | null> {
  if (!UUID.test(id)) return null;
  const row = await fileRow(trx, accountId, id);
  if (!row) return null;
  if (row.backend === 'database') return row.bytes ? { ...meta(row), bytes: Buffer.from(row.bytes) } : null;
  const target = await targetFor(deps, trx, accountId);
  let bytes: Buffer | null;
  try {
    bytes = await getObjectBytes(deps.config, target, row.s3_bucket!, row.object_key!, row.size);
  } catch (err) {
    if (err instanceof S3Failure) throw unavailable(err, 'read from');
    throw err;
  }
  if (!bytes) return null;
  // the bucket is outside our walls: what comes back must be what was written
  if (crypto.createHash('sha256').update(bytes).digest('hex') !== row.sha256)
    throw new ApiError(502, 'STORAGE_UNAVAILABLE', "The file in the account's S3 bucket has changed since it was written.");
  return { ...meta(row), bytes };
}

/**
 * A file's description and a way to open its bytes later, outside the transaction (a download
 * streams from S3 without holding a database connection); null when there is no such file.
 */
export async function openFile(
  deps: Deps,
  trx: Trx,
  accountId: string,
  id: string,
): Promise<(StoredFile & { open(): Promise<Buffer | Readable | null> }) | null> {
  if (!UUID.test(id)) return null;
  const row = await fileRow(trx, accountId, id);
  if (!row) return null;
  if (row.backend === 'database') {
    const bytes = row.bytes ? Buffer.from(row.bytes) : null;
    return bytes ? { ...meta(row), open: async () => bytes } : null;
  }
  const target = await targetFor(deps, trx, accountId);
  return {
    ...meta(row),
    open: async () => {
      try {
        return await getObjectStream(deps.config, target, row.s3_bucket!, row.object_key!);
      } catch (err) {
        if (err instanceof S3Failure) throw unavailable(err, 'read from');
        throw err;
      }
    },
  };
}

/**
 * Deletes a file's bytes for good; the row stays (marked) so what referred to it can say when.
 * An S3 object is deleted first: when the bucket cannot be reached the call fails and the file
 * stays as it was, so a redaction job tries again rather than believing it is gone.
 */
export async function deleteFile(deps: Deps, trx: Trx, accountId: string, id: string): Promise<void> {
  if (!UUID.test(id)) return;
  const row = await trx
    .selectFrom('stored_files')
    .select(['backend', 's3_bucket', 'object_key'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return;
  if (row.backend === 's3' && row.s3_bucket && row.object_key) {
    const target = await targetFor(deps, trx, accountId);
    try {
      await deleteObject(deps.config, target, row.s3_bucket, row.object_key);
    } catch (err) {
      if (err instanceof S3Failure) throw unavailable(err, 'deleted from');
      throw err;
    }
  }
  await trx
    .updateTable('stored_files')
    .set({ bytes: null, deleted_at: deps.now() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Deletes many files at once: one read of their rows, the S3 objects in DeleteObjects calls of up
 * to 1,000 keys per bucket, one update. As deleteFile, the objects go first: when the bucket
 * cannot be reached nothing is marked, and the caller's batch is tried again.
 */
export async function deleteFiles(deps: Deps, trx: Trx, accountId: string, ids: (string | null | undefined)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id && UUID.test(id)))];
  if (!wanted.length) return;
  const rows = await trx
    .selectFrom('stored_files')
    .select(['id', 'backend', 's3_bucket', 'object_key'])
    .where('account_id', '=', accountId)
    .where('id', 'in', wanted)
    .where('deleted_at', 'is', null)
    .execute();
  if (!rows.length) return;
  const byBucket = new Map<string, string[]>();
  for (const r of rows)
    if (r.backend === 's3' && r.s3_bucket && r.object_key)
      byBucket.set(r.s3_bucket, [...(byBucket.get(r.s3_bucket) ?? []), r.object_key]);
  if (byBucket.size) {
    const target = await targetFor(deps, trx, accountId);
    try {
      for (const [bucket, keys] of byBucket) await deleteObjects(deps.config, target, bucket, keys);
    } catch (err) {
      if (err instanceof S3Failure) throw unavailable(err, 'deleted from');
      throw err;
    }
  }
  await trx
    .updateTable('stored_files')
    .set({ bytes: null, deleted_at: deps.now() })
    .where('account_id', '=', accountId)
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .where('deleted_at', 'is', null)
    .execute();
}

// Signed download links: a reviewer's browser or a customer page fetches a file without a console
// session, for a few minutes. The link names account, file, expiry and how to present the file,
// under an HMAC keyed from ENCRYPTION_KEY; nothing is stored, and a changed byte voids it.

type LinkClaims = { a: string; f: string; e: number; n?: string; d?: 'inline' | 'attachment' };

function linkKey(secret: string): Buffer {
  return crypto.createHash('sha256').update(`switchboard:file-links:${secret}`).digest();
}

export function fileLink(
  deps: Deps,
  accountId: string,
  fileId: string,
  options: { ttlSeconds?: number; filename?: string; disposition?: 'inline' | 'attachment' } = {},
): string {
  const claims: LinkClaims = {
    a: accountId,
    f: fileId,
    e: Math.floor(deps.now().getTime() / 1000) + (options.ttlSeconds ?? 300),
  };
  if (options.filename) claims.n = options.filename;
  if (options.disposition) claims.d = options.disposition;
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const mac = crypto.createHmac('sha256', linkKey(deps.config.encryptionKey)).update(body).digest('base64url');
  return `/api/files/${body}.${mac}`;
}

/** The claims of a link that is intact and unexpired; null otherwise. */
export function readFileLink(
  deps: Deps,
  token: string,
): { accountId: string; fileId: string; filename?: string; disposition: 'inline' | 'attachment' } | null {
  const [body, mac] = token.split('.');
  if (!body || !mac || token.length > 2048) return null;
  const expected = crypto.createHmac('sha256', linkKey(deps.config.encryptionKey)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  let claims: LinkClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims;
  } catch {
    return null;
  }
  if (typeof claims.e !== 'number' || claims.e * 1000 <= deps.now().getTime()) return null;
  return { accountId: claims.a, fileId: claims.f, filename: claims.n, disposition: claims.d ?? 'inline' };
}
