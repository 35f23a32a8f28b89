import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
// @ts-expect-error s3rver ships no types
import S3rver from '@20minutes/s3rver';

// An S3-compatible server on loopback (s3rver keeps objects in a temporary directory) for the
// storage tests: the same SDK calls an account's real bucket gets. It knows one key pair.

export const S3_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export type S3Peer = {
  url: string;
  /** host:port, for OUTBOUND_ALLOW_HOSTS */
  host: string;
  port: number;
  /** the object's bytes and metadata (content-type, x-amz-meta-*) as s3rver keeps them; null when there is none */
  object(bucket: string, key: string): Promise<{ bytes: Buffer; metadata: Record<string, string> } | null>;
  /** keys in a bucket under a prefix */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  close(): Promise<void>;
};

export async function startS3Peer(buckets: string[] = ['switchboard-files']): Promise<S3Peer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  // s3rver signs a bucket-level path as "/bucket" where the SDK signs "/bucket/" (DeleteObjects is
  // POST /bucket/?delete): that one request alone is let through a signature mismatch (the access
  // key must still be the known one); every other request is checked as before
  (
    server as {
      middleware: ((
        ctx: { method: string; query: Record<string, unknown>; app: object },
        next: () => Promise<void>,
      ) => Promise<void>)[];
    }
  ).middleware.unshift(async (ctx, next) => {
    if (ctx.method === 'POST' && 'delete' in ctx.query)
      ctx.app = Object.create(ctx.app, { allowMismatchedSignatures: { value: true } });
    await next();
  });
  const address = (await server.run()) as AddressInfo;
  const store = server.store as {
    getObject(bucket: string, key: string): Promise<{ content: NodeJS.ReadableStream; metadata: Record<string, string> } | null>;
    listObjects(bucket: string, options: { prefix?: string; maxKeys?: number }): Promise<{ objects: { key: string }[] }>;
  };
  return {
    url: `http://127.0.0.1:${address.port}`,
    host: `127.0.0.1:${address.port}`,
    port: address.port,
    async object(bucket, key) {
      const found = await store.getObject(bucket, key);
      if (!found) return null;
      const chunks: Buffer[] = [];
      for await (const c of found.content) chunks.push(Buffer.from(c as Buffer));
      return { bytes: Buffer.concat(chunks), metadata: found.metadata };
    },
    async keys(bucket, prefix) {
      const listed = await store.listObjects(bucket, { prefix, maxKeys: 1000 });
      return listed.objects.map((o) => o.key);
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
