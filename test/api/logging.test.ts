import crypto from 'node:crypto';
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { json, LOOPBACK_CERT, startPeer, type Peer, type Received } from './peers';
import type { Config } from '../../api/config';
import { audit } from '../../api/audit';
import { backoffMs, shipOnce, startLogShipper } from '../../api/integrations/log-queue';
import { decryptSecret } from '../../api/crypto';

const DD_KEY = 'datadog-api-key-0123456789';
const AWS_KEY_ID = 'AKIDEXAMPLE123';
const AWS_SECRET = 'aws-secret-wJalrXUtnFEMI/K7MDENG';

/** Recomputes an AWS Signature Version 4 from the request and the secret we configured. */
function sigV4Valid(req: Received, secret: string): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return false;
  const [, , date, region, service, signedHeaders, signature] = m;
  const amzDate = String(req.headers['x-amz-date']);
  const canonicalHeaders = signedHeaders
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const hash = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
  const canonical = [req.method, req.path, req.query.toString(), canonicalHeaders, signedHeaders, hash(req.body)].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hash(canonical)].join('\n');
  const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data).digest();
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return crypto.createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

/** A CloudWatch Logs endpoint: checks target, content type and signature; keeps streams. */
async function fakeCloudwatch(): Promise<Peer & { events: { group: string; stream: string; message: string }[] }> {
  const streams = new Set<string>();
  const events: { group: string; stream: string; message: string }[] = [];
  const peer = await startPeer((req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.headers['content-type'] !== 'application/x-amz-json-1.1' || !target.startsWith('Logs_20140328.'))
      return json(res, 400, { __type: 'SerializationException' });
    if (!String(req.headers.authorization).includes(`Credential=${AWS_KEY_ID}/`) || !sigV4Valid(req, AWS_SECRET)) {
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
      return res.end(
        JSON.stringify({ __type: 'InvalidSignatureException', message: 'The request signature we calculated does not match' }),
      );
    }
    const body = JSON.parse(req.body);
    const reply = (status: number, b: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(b));
    };
    if (target === 'Logs_20140328.CreateLogGroup') return reply(200, {});
    if (target === 'Logs_20140328.CreateLogStream') {
      streams.add(`${body.logGroupName}/${body.logStreamName}`);
      return reply(200, {});
    }
    if (target === 'Logs_20140328.PutLogEvents') {
      if (!streams.has(`${body.logGroupName}/${body.logStreamName}`))
        return reply(400, { __type: 'ResourceNotFoundException', message: 'The specified log stream does not exist.' });
      for (const e of body.logEvents) events.push({ group: body.logGroupName, stream: body.logStreamName, message: e.message });
      return reply(200, { nextSequenceToken: '1' });
    }
    reply(400, { __type: 'UnknownOperationException' });
  });
  return Object.assign(peer, { events });
}

describe.each(DATABASE_KINDS)('logging destinations (%s)', (kind) => {
  let receiver: Peer; // Datadog, Sumo Logic and Rapid7 over https
  let cloudwatch: Awaited<ReturnType<typeof fakeCloudwatch>>;
  let mode: 'ok' | 'down' | 'hang' | 'echo' = 'ok';
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    receiver = await startPeer(
      (req, res) => {
        if (mode === 'hang') return;
        if (mode === 'down') return json(res, 503, { error: 'unavailable' });
        // a collector that quotes back what it refused
        if (mode === 'echo') return json(res, 403, { error: `invalid key ${req.headers['dd-api-key']}`, path: req.path });
        if (req.path === '/api/v2/logs')
          return req.headers['dd-api-key'] === DD_KEY ? json(res, 202, {}) : json(res, 403, { errors: ['Forbidden'] });
        if (req.path.startsWith('/receiver/v1/http/') || req.path.startsWith('/v1/noformat/webhook/')) return json(res, 200, {});
        json(res, 404, {});
      },
      { tls: true },
    );
    cloudwatch = await fakeCloudwatch();
    Object.assign(overrides, {
      outboundAllowHosts: [receiver.host],
      outboundCa: LOOPBACK_CERT,
      datadogIntakeUrl: receiver.url,
      cloudwatchEndpoint: cloudwatch.url,
    } satisfies Partial<Config>);
  });
  afterAll(async () => {
    await receiver.close();
    await cloudwatch.close();
  });
  const t = useTestContext(kind, overrides);
  const sumo = () => ({ destination: 'sumologic', sumologic: { collectorUrl: `${receiver.url}/receiver/v1/http/ZaVnC4dhaV0` } });
  const rapid7 = () => ({ destination: 'rapid7', rapid7: { webhookUrl: `${receiver.url}/v1/noformat/webhook/abc-token` } });
  const datadog = (apiKey = DD_KEY) => ({ destination: 'datadog', datadog: { apiKey, site: 'eu' } });
  const cw = (secretAccessKey = AWS_SECRET) => ({
    destination: 'cloudwatch',
    cloudwatch: { accessKeyId: AWS_KEY_ID, secretAccessKey, region: 'eu-west-2', logGroup: '/acme/audit' },
  });
  const acmeId = () => t.account('acme').id;
  const outbox = () => t.db.tenant(acmeId(), (trx) => trx.selectFrom('log_outbox').selectAll().orderBy('id').execute());

  it('nothing is connected at first', async () => {
    expect(await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json()).toEqual({});
  });

  it.each([
    [
      { destination: 'datadog', datadog: { apiKey: '', site: 'mars' } },
      { 'datadog.apiKey': 'API Key is required', 'datadog.site': 'Datadog Site is required' },
    ],
    [
      { destination: 'cloudwatch', cloudwatch: { accessKeyId: '', secretAccessKey: '', region: 'moon-1' } },
      {
        'cloudwatch.accessKeyId': 'AWS Access Key ID is required',
        'cloudwatch.secretAccessKey': 'AWS Secret Access Key is required',
        'cloudwatch.region': 'AWS Region is required',
      },
    ],
    [{ destination: 'sumologic', sumologic: { collectorUrl: '' } }, { 'sumologic.collectorUrl': 'Collector URL is required' }],
    [{ destination: 'rapid7', rapid7: { webhookUrl: '' } }, { 'rapid7.webhookUrl': 'Webhook URL is required' }],
  ])('settings are checked with the messages of the form (%#)', async (body, fields) => {
    const res = await t.call('POST', '/logging', { as: 'admin@acme.test', body });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual(fields);
  });

  it('Datadog site defaults to us1 and CloudWatch region to us-east-1', async () => {
    const { LoggingBodySchema } = await import('../../api/contract/logging');
    const v = await import('valibot');
    expect(v.parse(LoggingBodySchema, { destination: 'datadog', datadog: { apiKey: 'k' } })).toMatchObject({
      datadog: { site: 'us1' },
    });
    expect(
      v.parse(LoggingBodySchema, { destination: 'cloudwatch', cloudwatch: { accessKeyId: 'a', secretAccessKey: 's' } }),
    ).toMatchObject({ cloudwatch: { region: 'us-east-1' } });
  });

  it('the Datadog test sends a real event to the intake of the site with the API key', async () => {
    receiver.received.length = 0;
    const res = await t.call('POST', '/logging/test', { as: 'admin@acme.test', body: datadog() });
    expect(await res.json()).toEqual({ wasSuccessful: true });
    const req = receiver.received[0];
    expect(req.path).toBe('/api/v2/logs');
    expect(req.headers['dd-api-key']).toBe(DD_KEY);
    const [entry] = JSON.parse(req.body);
    expect(entry).toMatchObject({ ddsource: 'switchboard', service: 'switchboard', switchboard: { event: 'logging.test' } });
  });

  it('a refused Datadog key makes the test fail', async () => {
    const res = await t.call('POST', '/logging/test', { as: 'admin@acme.test', body: datadog('wrong') });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ wasSuccessful: false });
  });

  it.each([['sumologic'], ['rapid7']])('the %s test posts the event to the configured URL', async (which) => {
    receiver.received.length = 0;
    const body = which === 'sumologic' ? sumo() : rapid7();
    expect(await (await t.call('POST', '/logging/test', { as: 'admin@acme.test', body })).json()).toEqual({
      wasSuccessful: true,
    });
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ event: 'logging.test', accountId: acmeId() });
  });

  it('the CloudWatch test signs with SigV4, creates the stream and puts the event', async () => {
    const res = await t.call('POST', '/logging/test', { as: 'admin@acme.test', body: cw() });
    expect(await res.json()).toEqual({ wasSuccessful: true });
    const targets = cloudwatch.received.map((r) => r.headers['x-amz-target']);
    expect(targets).toEqual([
      'Logs_20140328.PutLogEvents',
      'Logs_20140328.CreateLogGroup',
      'Logs_20140328.CreateLogStream',
      'Logs_20140328.PutLogEvents',
    ]);
    expect(String(cloudwatch.received[0].headers.authorization)).toMatch(
      new RegExp(`Credential=${AWS_KEY_ID}/\\d{8}/eu-west-2/logs/aws4_request`),
    );
    expect(cloudwatch.events).toHaveLength(1);
    expect(cloudwatch.events[0]).toMatchObject({ group: '/acme/audit', stream: `switchboard-${acmeId()}` });
  });

  it('a wrong AWS secret fails the CloudWatch test (the endpoint checks the signature)', async () => {
    expect(
      await (await t.call('POST', '/logging/test', { as: 'admin@acme.test', body: cw('not-the-secret') })).json(),
    ).toMatchObject({ wasSuccessful: false });
  });

  it.each([
    'https://127.0.0.1/receiver',
    'https://[::ffff:127.0.0.1]/receiver',
    'https://169.254.169.254/latest',
    'https://192.168.0.10/receiver',
  ])('SSRF: a collector URL of %s is refused on save and on test', async (url) => {
    const body = { destination: 'sumologic', sumologic: { collectorUrl: url } };
    const saved = await t.call('POST', '/logging', { as: 'admin@acme.test', body });
    expect(saved.status).toBe(422);
    expect(await saved.json()).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    const tested = await t.call('POST', '/logging/test', { as: 'admin@acme.test', body });
    expect(tested.status).toBe(422);
  });

  it('connecting stores every secret encrypted and GET shows none of them', async () => {
    for (const body of [datadog(), cw(), sumo(), rapid7()]) {
      const res = await t.call('POST', '/logging', { as: 'admin@acme.test', body });
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const secret of [DD_KEY, AWS_SECRET, 'ZaVnC4dhaV0', 'abc-token']) expect(text).not.toContain(secret);
    }
    const text = await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).text();
    for (const secret of [DD_KEY, AWS_SECRET, AWS_KEY_ID, 'ZaVnC4dhaV0', 'abc-token']) expect(text).not.toContain(secret);
    const got = JSON.parse(text);
    expect(Object.keys(got).sort()).toEqual(['cloudwatch', 'datadog', 'rapid7', 'sumologic']);
    expect(got.datadog).toMatchObject({ connected: true, site: 'eu' });
    expect(got.cloudwatch).toMatchObject({ connected: true, region: 'eu-west-2', logGroup: '/acme/audit' });
    const rows = await t.db.tenant(acmeId(), (trx) => trx.selectFrom('logging_destinations').selectAll().execute());
    for (const secret of [DD_KEY, AWS_SECRET, 'ZaVnC4dhaV0', 'abc-token']) expect(JSON.stringify(rows)).not.toContain(secret);
  });

  const storedPlain = async () => {
    const rows = await t.db.tenant(acmeId(), (trx) =>
      trx.selectFrom('logging_destinations').select(['destination', 'settings_enc']).execute(),
    );
    return Object.fromEntries(
      rows.map((r) => [r.destination, JSON.parse(decryptSecret(r.settings_enc, t.deps.config.encryptionKey))]),
    );
  };

  it('managing a connected destination with blank secrets keeps the stored ones', async () => {
    const before = await storedPlain();
    const blanks = [
      { destination: 'datadog', datadog: { apiKey: '', site: 'eu' } },
      {
        destination: 'cloudwatch',
        cloudwatch: { accessKeyId: '', secretAccessKey: ' ', region: 'eu-west-2', logGroup: '/acme/audit' },
      },
      { destination: 'sumologic', sumologic: { collectorUrl: '' } },
      { destination: 'rapid7', rapid7: {} },
    ];
    for (const body of blanks) {
      const res = await t.call('POST', '/logging', { as: 'admin@acme.test', body });
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const secret of [DD_KEY, AWS_SECRET, AWS_KEY_ID, 'ZaVnC4dhaV0', 'abc-token']) expect(text).not.toContain(secret);
    }
    expect(await storedPlain()).toEqual(before);
    expect(before.datadog.apiKey).toBe(DD_KEY);
    expect(before.cloudwatch).toMatchObject({ accessKeyId: AWS_KEY_ID, secretAccessKey: AWS_SECRET });
    const audits = await t.db.tenant(acmeId(), (trx) =>
      trx
        .selectFrom('audit_log')
        .select('description')
        .where('event', '=', 'logging.configured')
        .orderBy('id', 'desc')
        .limit(4)
        .execute(),
    );
    expect(audits.map((a) => a.description)).toContain('Updated Datadog logging (kept the stored apiKey)');
  });

  it('managing with a new secret replaces only that one; other settings change as sent', async () => {
    const res = await t.call('POST', '/logging', {
      as: 'admin@acme.test',
      body: {
        destination: 'cloudwatch',
        cloudwatch: { accessKeyId: '', secretAccessKey: 'new-secret', region: 'eu-west-2', logGroup: '/acme/other' },
      },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).cloudwatch).toMatchObject({ region: 'eu-west-2', logGroup: '/acme/other' });
    expect((await storedPlain()).cloudwatch).toEqual({
      accessKeyId: AWS_KEY_ID,
      secretAccessKey: 'new-secret',
      region: 'eu-west-2',
      logGroup: '/acme/other',
    });
    // back to the settings the fake endpoint accepts
    expect((await t.call('POST', '/logging', { as: 'admin@acme.test', body: cw() })).status).toBe(200);
  });

  it.each([
    [
      'a new Datadog site',
      { destination: 'datadog', datadog: { apiKey: '', site: 'us3' } },
      { 'datadog.apiKey': 'API Key is required' },
    ],
    [
      'a new AWS region',
      { destination: 'cloudwatch', cloudwatch: { accessKeyId: '', secretAccessKey: '', region: 'ap-south-1' } },
      {
        'cloudwatch.accessKeyId': 'AWS Access Key ID is required',
        'cloudwatch.secretAccessKey': 'AWS Secret Access Key is required',
      },
    ],
  ])(
    '%s with blank secrets asks for them again: the stored ones only go where they were entered for',
    async (_what, body, fields) => {
      const before = await storedPlain();
      receiver.received.length = 0;
      cloudwatch.received.length = 0;
      for (const path of ['/logging', '/logging/test']) {
        const res = await t.call('POST', path, { as: 'admin@acme.test', body });
        expect(res.status, path).toBe(400);
        expect((await res.json()).fields).toEqual(fields);
      }
      expect(receiver.received).toHaveLength(0);
      expect(cloudwatch.received).toHaveLength(0);
      expect(await storedPlain()).toEqual(before);
    },
  );

  it.each([
    ['a line feed', 'key\nX-Injected: 1'],
    ['a carriage return', 'key\r\nmore'],
    ['a NUL', 'key\u0000more'],
    ['a C1 control', 'key\u0085more'],
  ])('a secret containing %s is refused at the contract and nothing is sent', async (_what, apiKey) => {
    receiver.received.length = 0;
    for (const path of ['/logging', '/logging/test']) {
      const res = await t.call('POST', path, { as: 'admin@acme.test', body: datadog(apiKey) });
      expect(res.status, path).toBe(400);
      expect((await res.json()).fields).toEqual({ 'datadog.apiKey': 'Must not contain line breaks or other control characters' });
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('a destination that echoes the refused key back: the test answer never quotes it', async () => {
    const secret = 'dd-secret-value-that-must-not-leak';
    mode = 'echo';
    try {
      const tested = (await (await t.call('POST', '/logging/test', { as: 'admin@acme.test', body: datadog(secret) })).json()) as {
        wasSuccessful: boolean;
        error: string;
      };
      expect(tested.wasSuccessful).toBe(false);
      expect(tested.error).toMatch(/^The destination answered 403/);
      expect(tested.error).not.toContain(secret);
    } finally {
      mode = 'ok';
    }
  });

  it('a blank kept URL still has its other checks: a typed URL must be https', async () => {
    const res = await t.call('POST', '/logging', {
      as: 'admin@acme.test',
      body: { destination: 'sumologic', sumologic: { collectorUrl: 'http://collector.example/x' } },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ 'sumologic.collectorUrl': 'URL must start with https://' });
  });

  it('a first connect with blank secrets still answers the messages of the form', async () => {
    for (const [body, fields] of [
      [{ destination: 'datadog', datadog: { apiKey: '' } }, { 'datadog.apiKey': 'API Key is required' }],
      [
        { destination: 'cloudwatch', cloudwatch: { accessKeyId: 'AKID', secretAccessKey: '' } },
        { 'cloudwatch.secretAccessKey': 'AWS Secret Access Key is required' },
      ],
      [{ destination: 'sumologic', sumologic: { collectorUrl: '' } }, { 'sumologic.collectorUrl': 'Collector URL is required' }],
      [{ destination: 'rapid7', rapid7: { webhookUrl: ' ' } }, { 'rapid7.webhookUrl': 'Webhook URL is required' }],
    ] as const) {
      // Acme has every destination connected now; Globex has none.
      const res = await t.call('POST', '/logging', { as: 'owner@globex.test', body });
      expect(res.status).toBe(400);
      expect((await res.json()).fields).toEqual(fields);
      const tested = await t.call('POST', '/logging/test', { as: 'owner@globex.test', body });
      expect(tested.status).toBe(400);
    }
    expect(await (await t.call('GET', '/logging', { as: 'owner@globex.test' })).json()).toEqual({});
  });

  it('the test of a connected destination uses the stored secrets for blank fields', async () => {
    receiver.received.length = 0;
    cloudwatch.received.length = 0;
    expect(
      await (
        await t.call('POST', '/logging/test', {
          as: 'admin@acme.test',
          body: { destination: 'datadog', datadog: { apiKey: '', site: 'eu' } },
        })
      ).json(),
    ).toEqual({ wasSuccessful: true });
    expect(receiver.received[0].headers['dd-api-key']).toBe(DD_KEY);
    expect(
      await (
        await t.call('POST', '/logging/test', {
          as: 'admin@acme.test',
          body: { destination: 'cloudwatch', cloudwatch: { accessKeyId: '', secretAccessKey: '', region: 'eu-west-2' } },
        })
      ).json(),
    ).toEqual({ wasSuccessful: true });
    expect(cloudwatch.received.length).toBeGreaterThan(0);
    expect(
      await (
        await t.call('POST', '/logging/test', {
          as: 'admin@acme.test',
          body: { destination: 'rapid7', rapid7: { webhookUrl: '' } },
        })
      ).json(),
    ).toEqual({ wasSuccessful: true });
    expect(receiver.received.some((r) => r.path === '/v1/noformat/webhook/abc-token')).toBe(true);
    // a typed secret is tested as typed, not replaced by the stored one
    expect(await (await t.call('POST', '/logging/test', { as: 'admin@acme.test', body: datadog('wrong') })).json()).toMatchObject(
      { wasSuccessful: false },
    );
  });

  it("audit entries are queued for every connected destination in the entry's transaction", async () => {
    await t.db.kysely.deleteFrom('log_outbox').execute();
    await t.db.tenant(acmeId(), (trx) =>
      audit(trx, acmeId(), null, { namespace: 'global', description: 'Queued one', event: 'test.queued' }),
    );
    const rows = await outbox();
    expect(rows.map((r) => r.destination).sort()).toEqual(['cloudwatch', 'datadog', 'rapid7', 'sumologic']);
    expect(rows[0].payload).toMatchObject({ event: 'test.queued', description: 'Queued one', admin: null, accountId: acmeId() });
    // a rolled-back change leaves no event behind
    await t.db
      .tenant(acmeId(), async (trx) => {
        await audit(trx, acmeId(), null, { namespace: 'global', description: 'Rolled back', event: 'test.rollback' });
        throw new Error('rollback');
      })
      .catch(() => {});
    expect((await outbox()).some((r) => (r.payload as { event: string }).event === 'test.rollback')).toBe(false);
  });

  it('the worker delivers queued events to each destination in one batch and empties the queue', async () => {
    receiver.received.length = 0;
    cloudwatch.events.length = 0;
    await t.db.tenant(acmeId(), (trx) =>
      audit(trx, acmeId(), null, { namespace: 'global', description: 'Second', event: 'test.second' }),
    );
    const n = await shipOnce(t.deps);
    expect(n).toBe(8);
    expect(await outbox()).toEqual([]);
    const sumoReq = receiver.received.find((r) => r.path.startsWith('/receiver/'))!;
    expect(sumoReq.body.split('\n').map((l) => JSON.parse(l).event)).toEqual(['test.queued', 'test.second']);
    const ddReq = receiver.received.find((r) => r.path === '/api/v2/logs')!;
    expect(JSON.parse(ddReq.body)).toHaveLength(2);
    expect(cloudwatch.events.map((e) => JSON.parse(e.message).event)).toEqual(['test.queued', 'test.second']);
  });

  it('a destination that is down keeps its events, with the error, and retries after a back-off', async () => {
    mode = 'down';
    await t.db.tenant(acmeId(), (trx) =>
      audit(trx, acmeId(), null, { namespace: 'global', description: 'Third', event: 'test.third' }),
    );
    await shipOnce(t.deps);
    const kept = (await outbox()).filter((r) => r.destination !== 'cloudwatch');
    expect(kept).toHaveLength(3);
    for (const r of kept) {
      expect(r.attempts).toBe(1);
      expect(r.last_error).toContain('503');
      expect(new Date(r.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    }
    const view = await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json();
    expect(view.sumologic).toMatchObject({ pending: 1 });
    expect(view.sumologic.lastError).toContain('503');
    // not due yet: nothing is leased
    expect(await shipOnce(t.deps)).toBe(0);
    mode = 'ok';
    await t.db.kysely
      .updateTable('log_outbox')
      .set({ next_attempt_at: new Date(Date.now() - 1000) })
      .execute();
    expect(await shipOnce(t.deps)).toBe(3);
    expect(await outbox()).toEqual([]);
  });

  it('a collector that echoes the key back: last_error, GET /logging and the server log never hold it', async () => {
    await t.db.kysely.deleteFrom('log_outbox').execute();
    mode = 'echo';
    const lines: string[] = [];
    try {
      await t.db.tenant(acmeId(), (trx) =>
        audit(trx, acmeId(), null, { namespace: 'global', description: 'Echo', event: 'test.echo' }),
      );
      await shipOnce({ ...t.deps, log: (msg: string, err?: unknown) => lines.push(`${msg} ${String(err ?? '')}`) });
      const row = (await outbox()).find((r) => r.destination === 'datadog')!;
      expect(row.last_error).toMatch(/^The destination answered 403/);
      expect(row.last_error).not.toContain(DD_KEY);
      const view = await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json();
      expect(view.datadog.lastError).not.toContain(DD_KEY);
      expect(lines.join('\n')).toContain('log shipping to datadog');
      expect(lines.join('\n')).not.toContain(DD_KEY);
    } finally {
      mode = 'ok';
      await t.db.kysely.deleteFrom('log_outbox').execute();
    }
  });

  it('a destination that fails 20 times ends up failed, apart from waiting, and Retry delivers it', async () => {
    await t.db.kysely.deleteFrom('log_outbox').execute();
    mode = 'down';
    await t.db.tenant(acmeId(), (trx) =>
      audit(trx, acmeId(), null, { namespace: 'global', description: 'Given up', event: 'test.given-up' }),
    );
    for (let round = 1; round <= 20; round++) {
      await t.db.kysely
        .updateTable('log_outbox')
        .set({ next_attempt_at: new Date(Date.now() - 1000) })
        .where('failed_at', 'is', null)
        .execute();
      await shipOnce(t.deps);
      if (round < 20) expect((await outbox()).every((r) => r.failed_at === null)).toBe(true);
    }
    const given = await outbox();
    expect(given.map((r) => r.destination).sort()).toEqual(['datadog', 'rapid7', 'sumologic']); // CloudWatch took it at once
    for (const r of given) {
      expect(r.attempts).toBe(20);
      expect(r.failed_at).not.toBeNull();
    }
    // given-up events are not retried by the worker, however due they are
    await t.db.kysely
      .updateTable('log_outbox')
      .set({ next_attempt_at: new Date(Date.now() - 1000) })
      .execute();
    expect(await shipOnce(t.deps)).toBe(0);
    const view = await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json();
    expect(view.sumologic).toMatchObject({ waiting: 0, pending: 0, failed: 1, lastError: null });
    expect(view.sumologic.failedError).toContain('503');
    expect(view.cloudwatch).toMatchObject({ waiting: 0, failed: 0, failedError: null });

    mode = 'ok';
    receiver.received.length = 0;
    const res = await t.call('POST', '/logging/retry', { as: 'admin@acme.test', body: { destination: 'sumologic' } });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(Object.keys(answer)).toEqual(['sumologic']);
    // the given-up event, and the audit entry of the retry itself
    expect(answer.sumologic).toMatchObject({ failed: 0, waiting: 2, failedError: null });
    const retried = (await outbox()).find(
      (r) => r.destination === 'sumologic' && (r.payload as { event: string }).event === 'test.given-up',
    )!;
    expect(retried).toMatchObject({ attempts: 0, failed_at: null });
    const audits = await t.db.tenant(acmeId(), (trx) =>
      trx.selectFrom('audit_log').select('description').where('event', '=', 'logging.retried').execute(),
    );
    expect(audits.map((a) => a.description)).toEqual(['Retried 1 undelivered event to Sumo Logic logging']);

    await shipOnce(t.deps);
    const sumoBodies = receiver.received.filter((r) => r.path.startsWith('/receiver/')).map((r) => r.body);
    expect(sumoBodies.join('\n')).toContain('"event":"test.given-up"');
    const after = await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json();
    expect(after.sumologic).toMatchObject({ waiting: 0, failed: 0 });
    // Datadog was not retried: its event is still given up
    expect(after.datadog).toMatchObject({ waiting: 0, failed: 1 });
    await t.db.kysely.deleteFrom('log_outbox').execute();
  });

  it('retrying a destination with nothing given up changes nothing and is not audited', async () => {
    const res = await t.call('POST', '/logging/retry', { as: 'admin@acme.test', body: { destination: 'rapid7' } });
    expect(res.status).toBe(200);
    expect((await res.json()).rapid7).toMatchObject({ waiting: 0, failed: 0 });
    const audits = await t.db.tenant(acmeId(), (trx) =>
      trx.selectFrom('audit_log').select('id').where('event', '=', 'logging.retried').execute(),
    );
    expect(audits).toHaveLength(1);
  });

  it('retry is refused for a destination that is not connected, an unknown one, or a supervisor', async () => {
    const missing = await t.call('POST', '/logging/retry', { as: 'owner@globex.test', body: { destination: 'datadog' } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'LOGGING_NOT_CONNECTED' });
    const unknown = await t.call('POST', '/logging/retry', { as: 'admin@acme.test', body: { destination: 'sftp' } });
    expect(unknown.status).toBe(400);
    expect(
      (await t.call('POST', '/logging/retry', { as: 'supervisor@acme.test', body: { destination: 'datadog' } })).status,
    ).toBe(403);
  });

  it('back-off doubles per attempt up to the cap', () => {
    const o = { baseBackoffMs: 1000, maxBackoffMs: 60_000 };
    for (const [attempt, centre] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
      [10, 60_000],
    ] as const) {
      const d = backoffMs(attempt, o);
      expect(d).toBeGreaterThanOrEqual(centre * 0.8);
      expect(d).toBeLessThanOrEqual(centre * 1.2);
    }
  });

  it('a slow destination never holds up the request that produced the event', async () => {
    mode = 'hang';
    const worker = startLogShipper(t.deps, { pollMs: 20 });
    try {
      await t.db.tenant(acmeId(), (trx) =>
        audit(trx, acmeId(), null, { namespace: 'global', description: 'Hang', event: 'test.hang' }),
      );
      // the worker is stuck on the destination once the destination has the event
      for (
        const end = Date.now() + 10_000;
        !receiver.received.some((r) => r.body.includes('test.hang'));
        await new Promise((r) => setTimeout(r, 10))
      ) {
        if (Date.now() > end) throw new Error('the event never reached the destination');
      }
      const started = Date.now();
      const res = await t.call('POST', '/logging', { as: 'admin@acme.test', body: datadog() });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      mode = 'ok';
      receiver.received.length = 0;
      await worker.stop();
    }
  });

  it('disconnecting drops the pending events of that destination and is audited', async () => {
    await t.db.kysely.deleteFrom('log_outbox').execute();
    await t.db.tenant(acmeId(), (trx) =>
      audit(trx, acmeId(), null, { namespace: 'global', description: 'Pending', event: 'test.pending' }),
    );
    const res = await t.call('DELETE', '/logging', { as: 'admin@acme.test', body: { destination: 'sumologic' } });
    expect(res.status).toBe(200);
    const left = await res.json();
    expect(left.sumologic).toBeUndefined();
    expect(
      (await outbox()).some((r) => r.destination === 'sumologic' && (r.payload as { event: string }).event === 'test.pending'),
    ).toBe(false);
    const events = await t.db.tenant(acmeId(), (trx) =>
      trx.selectFrom('audit_log').select('description').where('event', '=', 'logging.disconnected').execute(),
    );
    expect(events.map((e) => e.description)).toEqual(['Disconnected Sumo Logic logging']);
  });

  it("another account's events go only to its own destinations", async () => {
    await t.db.kysely.deleteFrom('log_outbox').execute();
    const globex = t.account('globex').id;
    await t.db.tenant(globex, (trx) =>
      audit(trx, globex, null, { namespace: 'global', description: 'Globex', event: 'test.globex' }),
    );
    expect(await t.db.system((trx) => trx.selectFrom('log_outbox').selectAll().execute())).toEqual([]);
    expect(await (await t.call('GET', '/logging', { as: 'owner@globex.test' })).json()).toEqual({});
  });

  it('a supervisor cannot manage logging', async () => {
    expect((await t.call('GET', '/logging', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('POST', '/logging/test', { as: 'supervisor@acme.test', body: datadog() })).status).toBe(403);
  });
});
