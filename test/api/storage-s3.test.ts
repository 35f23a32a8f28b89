import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../api/config';
import { deleteFile, fileLink, putFile, readFile } from '../../api/storage/files';
import { probe } from '../../api/storage/s3';
import { retentionDays } from '../../api/storage/settings';
import { S3_KEY, startS3Peer, type S3Peer } from '../support/s3-peer';
import { DATABASE_KINDS, useTestContext } from './helpers';

const BUCKET = 'switchboard-files';
const ADMIN = 'admin@acme.test';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(DATABASE_KINDS)('Storage settings and the S3 backend (%s)', (kind) => {
  let s3: S3Peer;
  let deadPort: number;
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    s3 = await startS3Peer([BUCKET, 'other-bucket']);
    deadPort = await closedPort();
    overrides.outboundAllowHosts = [s3.host, `127.0.0.1:${deadPort}`];
  });
  afterAll(() => s3.close());
  const t = useTestContext(kind, overrides);

  const s3Fields = (extra: Record<string, unknown> = {}) => ({
    endpoint: s3.url,
    region: 'us-east-1',
    bucket: BUCKET,
    accessKeyId: S3_KEY.accessKeyId,
    secretAccessKey: S3_KEY.secretAccessKey,
    pathStyle: true,
    ...extra,
  });
  const save = (body: unknown, as = ADMIN) => t.call('PUT', '/storage', { as, body });
  const acme = () => t.account('acme').id;

  it('starts on the database backend with every kind kept', async () => {
    const res = await t.call('GET', '/storage', { as: ADMIN });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      backend: 'database',
      s3: null,
      retention: { 'idv.images': null, 'idv.data': null, 'document-signature.completed': null },
      updatedAt: null,
    });
  });

  it('is for admins only', async () => {
    expect((await t.call('GET', '/storage', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await save({ backend: 'database' }, 'supervisor@acme.test')).status).toBe(403);
  });

  it('Test connection writes, reads and deletes a probe object in the bucket', async () => {
    const res = await t.call('POST', '/storage/test', { as: ADMIN, body: { s3: s3Fields() } });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ ok: true });
    expect(answer.message).toContain(BUCKET);
    expect(await s3.keys(BUCKET, `switchboard/${acme()}/`)).toEqual([]);
  });

  it('Test connection says which bucket is missing, which key is wrong, which port is unreachable', async () => {
    const test = async (fields: Record<string, unknown>) =>
      (await t.call('POST', '/storage/test', { as: ADMIN, body: { s3: s3Fields(fields) } })).json();
    expect(await test({ bucket: 'no-such-bucket' })).toMatchObject({
      ok: false,
      code: 'NO_SUCH_BUCKET',
      step: 'write',
      message: expect.stringContaining('"no-such-bucket" does not exist'),
    });
    expect(await test({ secretAccessKey: 'wrong-secret' })).toMatchObject({
      ok: false,
      code: 'ACCESS_DENIED',
      message: expect.stringContaining('secret access key does not match'),
    });
    expect(await test({ accessKeyId: 'NOBODY' })).toMatchObject({
      ok: false,
      code: 'ACCESS_DENIED',
      message: expect.stringContaining('does not know the access key ID'),
    });
    const unreachable = await test({ endpoint: `http://127.0.0.1:${deadPort}` });
    expect(unreachable).toMatchObject({ ok: false, code: 'UNREACHABLE', message: expect.stringContaining('ECONNREFUSED') });
    expect(JSON.stringify(unreachable)).not.toContain('wrong-secret');
  });

  it('an endpoint that accepts the connection and never answers is reported as a timeout', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const started = Date.now();
      const answer = await probe(
        { outboundAllowHosts: [host], outboundCa: undefined },
        { ...s3Fields(), endpoint: `http://${host}` },
        'p/',
        500,
      );
      expect(answer).toMatchObject({ ok: false, code: 'TIMEOUT', step: 'write' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
  });

  it('refuses endpoints the server may not call, before any connection', async () => {
    const privateIp = await save({ backend: 's3', s3: s3Fields({ endpoint: 'https://10.0.0.7' }) });
    expect(privateIp.status).toBe(422);
    expect((await privateIp.json()).fields['s3.endpoint']).toContain('private');
    const plainHttp = await t.call('POST', '/storage/test', {
      as: ADMIN,
      body: { s3: s3Fields({ endpoint: 'http://s3.example.com' }) },
    });
    expect(plainHttp.status).toBe(400);
    expect((await plainHttp.json()).fields).toEqual({ 's3.endpoint': 'Endpoint must start with https://' });
    const withPath = await save({ backend: 's3', s3: s3Fields({ endpoint: `${s3.url}/bucket?x=1` }) });
    expect(withPath.status).toBe(400);
    expect((await withPath.json()).fields['s3.endpoint']).toContain('without a path');
  });

  it('checks every field with a message, and changes nothing', async () => {
    const res = await save({
      backend: 's3',
      s3: { endpoint: '', bucket: 'A', accessKeyId: '', secretAccessKey: '' },
      retention: { 'idv.images': 0 },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({
      's3.endpoint': 'Endpoint is required',
      's3.bucket': 'Bucket names are 3 to 63 lower-case letters, digits, dots and hyphens',
      's3.accessKeyId': 'Access key ID is required',
      'retention.idv.images': 'Enter a number of days from 1 to 3650, or keep',
    });
    const missingSecret = await save({ backend: 's3', s3: s3Fields({ secretAccessKey: '' }) });
    expect(missingSecret.status).toBe(400);
    expect((await missingSecret.json()).fields).toEqual({ 's3.secretAccessKey': 'Secret access key is required' });
    expect((await (await t.call('GET', '/storage', { as: ADMIN })).json()).backend).toBe('database');
  });

  it('saves S3 settings and retention; the secret is never returned', async () => {
    const res = await save({
      backend: 's3',
      s3: s3Fields(),
      retention: { 'idv.images': 30, 'idv.data': 365, 'document-signature.completed': null },
    });
    expect(res.status).toBe(200);
    const view = await res.json();
    expect(view).toMatchObject({
      backend: 's3',
      s3: { endpoint: s3.url, region: 'us-east-1', bucket: BUCKET, accessKeyId: 'S3RVER', pathStyle: true, secretStored: true },
      retention: { 'idv.images': 30, 'idv.data': 365, 'document-signature.completed': null },
    });
    const got = await (await t.call('GET', '/storage', { as: ADMIN })).text();
    expect(got).not.toContain('"secretAccessKey"');
    const row = await t.db.tenant(acme(), (trx) =>
      trx.selectFrom('storage_settings').select('s3_secret_encrypted').where('account_id', '=', acme()).executeTakeFirstOrThrow(),
    );
    expect(row.s3_secret_encrypted).toMatch(/^v1\./);
    expect(row.s3_secret_encrypted).not.toContain('S3RVER');
    expect(await t.db.tenant(acme(), (trx) => retentionDays(trx, acme(), 'idv.images'))).toBe(30);
    expect(await t.db.tenant(acme(), (trx) => retentionDays(trx, acme(), 'document-signature.completed'))).toBeNull();
    const log = await (await t.call('GET', '/audit-log', { as: ADMIN })).json();
    expect(JSON.stringify(log)).toContain('Updated storage settings: files now go to an S3-compatible bucket');
  });

  it('a blank secret keeps the stored one, and Test connection uses it', async () => {
    const res = await save({
      backend: 's3',
      s3: s3Fields({ secretAccessKey: '', pathStyle: true }),
      retention: { 'idv.images': 7 },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).retention['idv.images']).toBe(7);
    const tested = await t.call('POST', '/storage/test', { as: ADMIN, body: { s3: s3Fields({ secretAccessKey: '' }) } });
    expect(await tested.json()).toMatchObject({ ok: true });
  });

  it('the stored secret is bound to its endpoint, bucket and access key', async () => {
    for (const moved of [{ endpoint: `http://127.0.0.1:${deadPort}` }, { bucket: 'other-bucket' }, { accessKeyId: 'ANOTHER' }]) {
      const res = await save({ backend: 's3', s3: s3Fields({ ...moved, secretAccessKey: '' }) });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('SECRET_REENTRY_REQUIRED');
      expect(body.fields['s3.secretAccessKey']).toContain('Enter the secret access key again');
      const tested = await t.call('POST', '/storage/test', {
        as: ADMIN,
        body: { s3: s3Fields({ ...moved, secretAccessKey: '' }) },
      });
      expect(tested.status).toBe(400);
    }
    // nothing changed
    expect((await (await t.call('GET', '/storage', { as: ADMIN })).json()).s3).toMatchObject({
      endpoint: s3.url,
      bucket: BUCKET,
      secretStored: true,
    });
    // re-entered, the secret moves with the new bucket
    const moved = await save({ backend: 's3', s3: s3Fields({ bucket: 'other-bucket' }) });
    expect((await moved.json()).s3).toMatchObject({ bucket: 'other-bucket', secretStored: true });
    expect((await save({ backend: 's3', s3: s3Fields() })).status).toBe(200);
  });

  it('another account sees none of it', async () => {
    const res = await t.call('GET', '/storage', { as: 'owner@globex.test' });
    expect(await res.json()).toMatchObject({ backend: 'database', s3: null });
    const globex = t.account('globex').id;
    expect(await t.db.tenant(globex, (trx) => retentionDays(trx, globex, 'idv.images'))).toBeNull();
  });

  it('files go to the bucket under the account prefix, read back, download through a link, and delete', async () => {
    const bytes = Buffer.from('%PDF-1.7 pretend document');
    const file = await t.db.tenant(acme(), (trx) =>
      putFile(t.deps, trx, acme(), { app: 'document-signature', contentType: 'application/pdf', bytes }),
    );
    const row = await t.db.tenant(acme(), (trx) =>
      trx.selectFrom('stored_files').selectAll().where('id', '=', file.id).executeTakeFirstOrThrow(),
    );
    expect(row).toMatchObject({
      backend: 's3',
      s3_bucket: BUCKET,
      object_key: `switchboard/${acme()}/document-signature/${file.id}`,
      bytes: null,
    });
    const object = await s3.object(BUCKET, row.object_key!);
    expect(object?.bytes.equals(bytes)).toBe(true);
    expect(object?.metadata).toMatchObject({ 'content-type': 'application/pdf', 'x-amz-meta-sha256': file.sha256 });

    const read = await t.db.tenant(acme(), (trx) => readFile(t.deps, trx, acme(), file.id));
    expect(read?.bytes.equals(bytes)).toBe(true);

    const link = await t.app.request(fileLink(t.deps, acme(), file.id, { filename: 'contract.pdf', disposition: 'attachment' }));
    expect(link.status).toBe(200);
    expect(link.headers.get('content-type')).toBe('application/pdf');
    expect(link.headers.get('content-disposition')).toBe('attachment; filename="contract.pdf"');
    expect(Buffer.from(await link.arrayBuffer()).equals(bytes)).toBe(true);

    // globex's link to acme's file finds nothing
    expect((await t.app.request(fileLink(t.deps, t.account('globex').id, file.id))).status).toBe(404);

    await t.db.tenant(acme(), (trx) => deleteFile(t.deps, trx, acme(), file.id));
    expect(await s3.object(BUCKET, row.object_key!)).toBeNull();
    expect(await t.db.tenant(acme(), (trx) => readFile(t.deps, trx, acme(), file.id))).toBeNull();
    expect((await t.app.request(fileLink(t.deps, acme(), file.id))).status).toBe(404);
  });

  it('a large file streams through its link intact', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    const file = await t.db.tenant(acme(), (trx) =>
      putFile(t.deps, trx, acme(), { app: 'identity-verification', contentType: 'image/jpeg', bytes }),
    );
    const res = await t.app.request(fileLink(t.deps, acme(), file.id));
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('an unreachable bucket fails the write with a clear answer and keeps no row', async () => {
    await t.db.tenant(acme(), (trx) =>
      trx.updateTable('storage_settings').set({ s3_bucket: 'no-such-bucket' }).where('account_id', '=', acme()).execute(),
    );
    // the secret was sealed for the other bucket: not sent to this one
    await expect(
      t.db.tenant(acme(), (trx) =>
        putFile(t.deps, trx, acme(), { app: 'e-form', contentType: 'text/plain', bytes: Buffer.from('x') }),
      ),
    ).rejects.toMatchObject({ code: 'STORAGE_NOT_CONFIGURED' });
    await t.db.tenant(acme(), (trx) =>
      trx.updateTable('storage_settings').set({ s3_bucket: BUCKET }).where('account_id', '=', acme()).execute(),
    );
    expect((await save({ backend: 's3', s3: s3Fields({ bucket: 'no-such-bucket' }) })).status).toBe(200);
    const before = await t.db.tenant(acme(), (trx) =>
      trx
        .selectFrom('stored_files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    );
    await expect(
      t.db.tenant(acme(), (trx) =>
        putFile(t.deps, trx, acme(), { app: 'e-form', contentType: 'text/plain', bytes: Buffer.from('x') }),
      ),
    ).rejects.toMatchObject({ status: 502, code: 'STORAGE_UNAVAILABLE' });
    const after = await t.db.tenant(acme(), (trx) =>
      trx
        .selectFrom('stored_files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    );
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await save({ backend: 's3', s3: s3Fields() })).status).toBe(200);
  });

  it('switching back to the database keeps old S3 files readable and writes new ones to the database', async () => {
    const old = await t.db.tenant(acme(), (trx) =>
      putFile(t.deps, trx, acme(), { app: 'e-form', contentType: 'text/plain', bytes: Buffer.from('in s3') }),
    );
    const res = await save({ backend: 'database' });
    expect(res.status).toBe(200);
    expect((await res.json()).s3).toMatchObject({ bucket: BUCKET, secretStored: true });
    const fresh = await t.db.tenant(acme(), (trx) =>
      putFile(t.deps, trx, acme(), { app: 'e-form', contentType: 'text/plain', bytes: Buffer.from('in db') }),
    );
    const backends = await t.db.tenant(acme(), (trx) =>
      trx.selectFrom('stored_files').select(['id', 'backend']).where('id', 'in', [old.id, fresh.id]).execute(),
    );
    expect(Object.fromEntries(backends.map((b) => [b.id, b.backend]))).toEqual({ [old.id]: 's3', [fresh.id]: 'database' });
    expect((await t.db.tenant(acme(), (trx) => readFile(t.deps, trx, acme(), old.id)))?.bytes.toString()).toBe('in s3');
    expect((await t.db.tenant(acme(), (trx) => readFile(t.deps, trx, acme(), fresh.id)))?.bytes.toString()).toBe('in db');
  });
});
