import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { S3_KEY, startS3Peer, type S3Peer } from '../support/s3-peer';
import { ADMIN, page, publishedDocument, v1 } from '../support/signature-flow';
import { sealRequest } from '../../api/apps/document-signature/service';
import { runOpenPrivacyRequests } from '../../api/privacy/service';
import { runDueJobs } from '../../api/jobs/runner';
import { PRIVACY_JOBS } from '../../api/privacy/jobs';
import { runRetention } from '../../api/privacy/retention';
import type { SigDocument, SigRequest } from '../../api/contract/apps/document-signature';
import type { PrivacyRequest } from '../../api/contract/privacy';
import type { Config } from '../../api/config';
import { unzip } from '../support/zip';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// Erasure and export against real peers on loopback: the account's files in an S3 bucket (s3rver)
// and its texts sent through Twilio (a peer that speaks Twilio's Messages API, DELETE included).

const SID = 'AC' + 'b'.repeat(32);
const BUCKET = 'privacy-files';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe.each(DATABASE_KINDS)("A caller's data with S3 and Twilio (%s)", (kind) => {
  let s3: S3Peer;
  // the bucket as the retention fault test reaches it: through a proxy it can cut
  let s3Proxy: TcpProxy;
  let twilio: Peer;
  let messages = 0;
  let deleteAnswer = 204;
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    s3 = await startS3Peer([BUCKET]);
    twilio = await startPeer((req, res) => {
      if (req.method === 'GET' && req.path === `/2010-04-01/Accounts/${SID}.json`)
        return json(res, 200, { sid: SID, status: 'active' });
      if (req.method === 'POST' && req.path === `/2010-04-01/Accounts/${SID}/Messages.json`)
        return json(res, 201, { sid: `SM${String(++messages).padStart(32, '0')}`, status: 'queued' });
      if (req.method === 'DELETE' && req.path.startsWith(`/2010-04-01/Accounts/${SID}/Messages/SM`)) {
        if (deleteAnswer === 204) return (res.writeHead(204), res.end());
        return json(res, deleteAnswer, { code: 20500, message: 'Internal error', status: deleteAnswer });
      }
      json(res, 404, { message: 'not found' });
    });
    overrides.twilioApiUrl = twilio.url;
    s3Proxy = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
    overrides.outboundAllowHosts = [s3.host, twilio.host, `127.0.0.1:${s3Proxy.port}`];
  });
  afterAll(async () => {
    await s3Proxy.close();
    await s3.close();
    await twilio.close();
  });
  const t = useTestContext(kind, overrides);
  const acme = () => t.account('acme').id;
  let key: string;
  let doc: SigDocument;

  /** The link in the last text Twilio was asked to send to `phone`. */
  const linkTo = (phone: string) => {
    const sent = twilio.received.filter((r) => r.method === 'POST' && new URLSearchParams(r.body).get('To') === phone).at(-1)!;
    return new URLSearchParams(sent.body).get('Body')!.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
  };

  async function signedByDrawing(phone: string, signer: string): Promise<SigRequest> {
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: signer })
    ).json()) as SigRequest;
    expect(
      (
        await page(t, linkTo(phone), {
          action: 'sign',
          sig_png_sig1: `data:image/png;base64,${PNG}`,
          field_name1: signer,
          field_ok1: 'on',
          consent: 'on',
        })
      ).status,
    ).toBe(200);
    await sealRequest(t.deps, acme(), sent.id);
    return sent;
  }

  beforeAll(async () => {
    expect((await t.call('POST', '/document-signature/billing/free-trial', { as: ADMIN, body: {} })).status).toBe(201);
    const storage = await t.call('PUT', '/storage', {
      as: ADMIN,
      body: {
        backend: 's3',
        s3: {
          endpoint: s3.url,
          region: 'us-east-1',
          bucket: BUCKET,
          accessKeyId: S3_KEY.accessKeyId,
          secretAccessKey: S3_KEY.secretAccessKey,
          pathStyle: true,
        },
      },
    });
    expect(storage.status).toBe(200);
    expect(
      (
        await t.call('POST', '/sms', {
          as: ADMIN,
          body: {
            provider: 'twilio',
            twilio: { accountSid: SID, authToken: 'twilio-token-privacy', phoneNumber: '+14155550100' },
          },
        })
      ).status,
    ).toBe(200);
    key = ((await (await t.call('GET', '/accounts/developer', { as: ADMIN })).json()) as { secretKey: string }).secretKey;
    doc = await publishedDocument(t);
  });

  const objectsOf = async (fileIds: string[]) =>
    (
      await t.db.tenant(acme(), (trx) =>
        sql<{ object_key: string }>`select object_key from stored_files where id = any(${fileIds}::uuid[])`.execute(trx),
      )
    ).rows.map((r) => r.object_key);
  const filesOf = async (requestId: string) =>
    (
      await t.db.tenant(acme(), (trx) =>
        sql<{
          id: string;
        }>`select signed_file_id::text as id from sig_requests where id = ${requestId} union all select image_file_id::text from sig_field_values where request_id = ${requestId} and image_file_id is not null`.execute(
          trx,
        ),
      )
    ).rows.map((r) => r.id);

  it('an export is a ZIP of a JSON document per app and the files from S3, downloaded through a short-lived signed link, and audited', async () => {
    const phone = '+14156662001';
    const sent = await signedByDrawing(phone, 'Lin Export');
    const res = await t.call('POST', '/privacy/export-requests', { as: ADMIN, body: { phoneNumber: phone } });
    expect(res.status).toBe(200);
    const asked = (await res.json()) as PrivacyRequest;
    expect(asked.state).toBe('pending');
    // the privacy.exports job, as the runner runs it
    expect(
      await runDueJobs(
        t.deps,
        PRIVACY_JOBS.filter((j) => j.name === 'privacy.exports'),
      ),
    ).toEqual(['privacy.exports']);
    const request = (await (await t.call('GET', `/privacy/requests/${asked.id}`, { as: ADMIN })).json()) as PrivacyRequest;
    expect(request).toMatchObject({
      kind: 'export',
      state: 'done',
      counts: { 'signature.requests': 1, 'signature.requests.files': 2 },
    });
    expect(request.downloadUrl).toMatch(/^\/api\/files\//);
    const download = await t.app.request(request.downloadUrl!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    const entries = await unzip(Buffer.from(await download.arrayBuffer()));
    const names = entries.map((e) => e.name).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'README.txt',
        'document-signature.json',
        'platform.json',
        `files/document-signature/${sent.id}-signed.pdf`,
        `files/document-signature/${sent.id}-sig1.png`,
      ]),
    );
    const signatures = JSON.parse(entries.find((e) => e.name === 'document-signature.json')!.bytes.toString('utf8'));
    expect(signatures['signature.requests'].records[0]).toMatchObject({
      id: sent.id,
      signer_name: 'Lin Export',
      phone_number: phone,
    });
    expect(
      entries
        .find((e) => e.name.endsWith('-signed.pdf'))!
        .bytes.subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(entries.find((e) => e.name.endsWith('-sig1.png'))!.bytes.equals(Buffer.from(PNG, 'base64'))).toBe(true);
    // the ZIP itself is kept where the account keeps files: its bucket
    const zipKey = await t.db.tenant(acme(), (trx) =>
      sql<{
        object_key: string;
      }>`select f.object_key from stored_files f join privacy_requests p on p.file_id = f.id where p.id = ${request.id}`.execute(
        trx,
      ),
    );
    expect(await s3.object(BUCKET, zipKey.rows[0]!.object_key)).not.toBeNull();
    // the link is short-lived: ten minutes later it opens nothing
    const later = t.clock.now;
    t.clock.now = new Date(later.getTime() + 11 * 60_000);
    expect((await t.app.request(request.downloadUrl!)).status).toBe(404);
    t.clock.now = later;
    const log = await t.db.tenant(acme(), (trx) =>
      sql<{
        description: string;
      }>`select description from audit_log where account_id = ${acme()} and event = 'privacy.exported'`.execute(trx),
    );
    expect(log.rows.map((r) => r.description)).toEqual([expect.stringContaining(request.id)]);
    // a week later the retention job deletes the ZIP from the bucket
    t.clock.now = new Date(later.getTime() + 8 * 24 * 3600_000);
    await runRetention(t.deps);
    t.clock.now = later;
    expect(await s3.object(BUCKET, zipKey.rows[0]!.object_key)).toBeNull();
    expect((await (await t.call('GET', `/privacy/requests/${request.id}`, { as: ADMIN })).json()).downloadUrl).toBeNull();
  });

  it("an erasure deletes the caller's files from the S3 bucket and has Twilio delete its copy of each text", async () => {
    const phone = '+14156662002';
    const sent = await signedByDrawing(phone, 'Kai Erase');
    const objects = await objectsOf(await filesOf(sent.id));
    expect(objects.length).toBe(2);
    for (const k of objects) expect(await s3.object(BUCKET, k)).not.toBeNull();
    const sids = (
      await t.db.tenant(acme(), (trx) =>
        sql<{ sid: string }>`select sid from sms_messages where phone_number = ${phone}`.execute(trx),
      )
    ).rows.map((r) => r.sid);
    expect(sids.length).toBeGreaterThan(0);
    const res = await v1(t, key, 'POST', '/erasure-requests', { phoneNumber: phone });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ state: 'done', counts: { 'signature.requests': 1, 'sms.messages': sids.length } });
    for (const k of objects) expect(await s3.object(BUCKET, k)).toBeNull();
    const deleted = twilio.received.filter((r) => r.method === 'DELETE').map((r) => r.path);
    for (const sid of sids) expect(deleted).toContain(`/2010-04-01/Accounts/${SID}/Messages/${sid}.json`);
    expect(
      (await t.db.tenant(acme(), (trx) => sql`select 1 from sms_messages where phone_number = ${phone}`.execute(trx))).rows,
    ).toEqual([]);
  });

  it('when Twilio cannot delete a text the erasure stays open with what it did, and the job finishes it once Twilio answers', async () => {
    const phone = '+14156662003';
    await signedByDrawing(phone, 'Noor Retry');
    deleteAnswer = 500;
    const res = await v1(t, key, 'POST', '/erasure-requests', { phoneNumber: phone });
    const open = (await res.json()) as PrivacyRequest;
    expect(open.state).toBe('running');
    // the stores before the message log are done; the text's number is still known
    expect(open.counts['signature.requests']).toBe(1);
    expect(
      (await t.db.tenant(acme(), (trx) => sql`select 1 from sms_messages where phone_number = ${phone}`.execute(trx))).rows
        .length,
    ).toBeGreaterThan(0);
    // asking again while it is open answers the same request
    const again = await v1(t, key, 'POST', '/erasure-requests', { phoneNumber: phone });
    expect(again.status).toBe(200);
    expect(((await again.json()) as PrivacyRequest).id).toBe(open.id);
    deleteAnswer = 204;
    expect(await runOpenPrivacyRequests(t.deps)).toBe(1);
    const done = (await (await v1(t, key, 'GET', `/erasure-requests/${open.id}`)).json()) as PrivacyRequest;
    // two texts: the link to sign and the signer's copy
    expect(done).toMatchObject({ state: 'done', counts: { 'signature.requests': 1, 'sms.messages': 2 } });
    expect(
      (await t.db.tenant(acme(), (trx) => sql`select 1 from sms_messages where phone_number = ${phone}`.execute(trx))).rows,
    ).toEqual([]);
  });
  it("retention deletes a signed document's files from the bucket in bulk; with the bucket unreachable nothing is marked deleted, and the next run finishes", async () => {
    const sent = await signedByDrawing('+14156662004', 'Lee Retain');
    const fileIds = await filesOf(sent.id);
    const objects = await objectsOf(fileIds);
    expect(objects.length).toBe(2);
    const s3Settings = (endpoint: string) => ({
      endpoint,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: S3_KEY.accessKeyId,
      secretAccessKey: S3_KEY.secretAccessKey,
      pathStyle: true,
    });
    const retention = { 'idv.images': null, 'idv.data': null, 'document-signature.completed': 1 };
    expect(
      (
        await t.call('PUT', '/storage', {
          as: ADMIN,
          body: { backend: 's3', s3: s3Settings(`http://127.0.0.1:${s3Proxy.port}`), retention },
        })
      ).status,
    ).toBe(200);
    expect((await t.call('POST', '/privacy/retention/document-signature.completed/confirm', { as: ADMIN })).status).toBe(200);
    const kept = async () =>
      (
        await t.db.tenant(acme(), (trx) =>
          sql<{
            n: number;
          }>`select count(*)::int as n from stored_files where id = any(${fileIds}::uuid[]) and deleted_at is null`.execute(trx),
        )
      ).rows[0]!.n;
    const start = t.clock.now;
    t.clock.now = new Date(start.getTime() + 2 * 24 * 3600_000);
    try {
      s3Proxy.refuse(true);
      await expect(runRetention(t.deps)).rejects.toThrow(/S3 bucket/);
      expect(await kept()).toBe(2);
      for (const k of objects) expect(await s3.object(BUCKET, k)).not.toBeNull();
      s3Proxy.refuse(false);
      expect((await runRetention(t.deps)).get(acme())?.['document-signature.completed']).toBeGreaterThanOrEqual(1);
      expect(await kept()).toBe(0);
      for (const k of objects) expect(await s3.object(BUCKET, k)).toBeNull();
    } finally {
      s3Proxy.refuse(false);
      t.clock.now = start;
      await t.call('PUT', '/storage', {
        as: ADMIN,
        body: { backend: 's3', s3: s3Settings(s3.url), retention: { ...retention, 'document-signature.completed': null } },
      });
    }
  });
});
