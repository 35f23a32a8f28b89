import crypto from 'node:crypto';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';

// One place where the apps keep files. Callers hand over bytes and get an id; where the bytes go
// (this database, or the account's S3-compatible bucket once storage settings say so) is decided
// here, so no app knows or cares. Reading is by id inside the account's own transaction, so row-
// level security keeps each account to its own files.

export type StoredFile = { id: string; contentType: string; size: number; sha256: string };
export type FileContent = StoredFile & { bytes: Buffer };

export async function putFile(deps: Deps, trx: Trx, accountId: string, file: { app: string; contentType: string; bytes: Uint8Array }): Promise<StoredFile> {
  const bytes = Buffer.from(file.bytes);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const row = await trx
    .insertInto('stored_files')
    .values({ account_id: accountId, app: file.app, content_type: file.contentType, size: bytes.length, sha256, backend: 'database', bytes, created_at: deps.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, contentType: file.contentType, size: bytes.length, sha256 };
}

/** A file's bytes; null when there is no such file in this account or it was deleted. */
export async function readFile(_deps: Deps, trx: Trx, accountId: string, id: string): Promise<FileContent | null> {
  const row = await trx
    .selectFrom('stored_files')
    .select(['id', 'content_type', 'size', 'sha256', 'backend', 'bytes'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || !row.bytes) return null;
  return { id: row.id, contentType: row.content_type, size: row.size, sha256: row.sha256, bytes: Buffer.from(row.bytes) };
}

/** Deletes a file's bytes for good; the row stays (marked) so what referred to it can say when. */
export async function deleteFile(deps: Deps, trx: Trx, accountId: string, id: string): Promise<void> {
  await trx.updateTable('stored_files').set({ bytes: null, deleted_at: deps.now() }).where('account_id', '=', accountId).where('id', '=', id).where('deleted_at', 'is', null).execute();
}

// Signed download links: a reviewer's browser or a customer page fetches a file without a console
// session, for a few minutes. The link names account, file, expiry and how to present the file,
// under an HMAC keyed from ENCRYPTION_KEY; nothing is stored, and a changed byte voids it.

type LinkClaims = { a: string; f: string; e: number; n?: string; d?: 'inline' | 'attachment' };

function linkKey(secret: string): Buffer {
  return crypto.createHash('sha256').update(`switchboard:file-links:${secret}`).digest();
}

export function fileLink(deps: Deps, accountId: string, fileId: string, options: { ttlSeconds?: number; filename?: string; disposition?: 'inline' | 'attachment' } = {}): string {
  const claims: LinkClaims = { a: accountId, f: fileId, e: Math.floor(deps.now().getTime() / 1000) + (options.ttlSeconds ?? 300) };
  if (options.filename) claims.n = options.filename;
  if (options.disposition) claims.d = options.disposition;
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const mac = crypto.createHmac('sha256', linkKey(deps.config.encryptionKey)).update(body).digest('base64url');
  return `/api/files/${body}.${mac}`;
}

/** The claims of a link that is intact and unexpired; null otherwise. */
export function readFileLink(deps: Deps, token: string): { accountId: string; fileId: string; filename?: string; disposition: 'inline' | 'attachment' } | null {
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
