import { Readable } from 'node:stream';
import { Hono } from 'hono';
import contentDisposition from 'content-disposition';
import type { AppEnv } from '../auth/context';
import { ApiError } from '../http/errors';
import { openFile, readFileLink } from './files';

// Downloads through signed links (api/storage/files.ts): the link is the capability, no session.
// A file kept in S3 is streamed through from the bucket, after the database transaction ended.
export const fileRoutes = new Hono<AppEnv>().get('/files/:token', async (c) => {
  const deps = c.var.deps;
  const link = readFileLink(deps, c.req.param('token'));
  if (!link)
    throw new ApiError(
      404,
      'LINK_INVALID',
      'This download link has expired or is not valid. Open the file again from the console.',
    );
  const file = await deps.db.tenant(link.accountId, (trx) => openFile(deps, trx, link.accountId, link.fileId));
  const body = file ? await file.open() : null;
  if (!file || !body) throw new ApiError(404, 'FILE_NOT_FOUND', 'This file no longer exists.');
  // The name as the service gave it ('agreement (signed).pdf', a title in any script): only control
  // characters and path separators go. content-disposition quotes it, with an ISO-8859-1
  // fallback in filename= and the exact name in RFC 6266's filename*=UTF-8''…
  const name = (link.filename ?? 'file').replace(/[\u0000-\u001f\u007f/\\]/g, '_');
  const headers = {
    'content-type': file.contentType,
    'content-length': String(file.size),
    'content-disposition': contentDisposition(name, { type: link.disposition }),
    // a file is shown as itself, never as a page that could run script on our origin
    'content-security-policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    'cache-control': 'private, no-store',
  };
  if (Buffer.isBuffer(body)) return c.body(new Uint8Array(body), 200, headers);
  return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, headers);
});
