import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { startTracing, stopTracing } from '../../api/observability/tracing';
import { runDueJobs } from '../../api/jobs/runner';
import { PRIVACY_JOBS } from '../../api/privacy/jobs';

// OpenTelemetry over OTLP/HTTP to a loopback receiver: the spans of a bootstrap and of a One-Time
// Passcode send through Twilio, one trace each, children of the caller's traceparent; the job a
// request asks for runs as a trace of its own, linked to the request's.

const SID = 'AC' + 'b'.repeat(32);
const TOKEN = 'twilio-auth-token-for-traces';

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
};

function spansOf(received: Peer['received']): OtlpSpan[] {
  return received
    .filter((r) => r.path === '/v1/traces')
    .flatMap((r) => (JSON.parse(r.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans)
    .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

const traceparent = () => {
  const traceId = crypto.randomBytes(16).toString('hex');
  const spanId = crypto.randomBytes(8).toString('hex');
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
};

describe.each(DATABASE_KINDS)('traces (%s)', (kind) => {
  const overrides: Record<string, unknown> = {};
  let twilio: Peer;
  let receiver: Peer;
  beforeAll(async () => {
    twilio = await startPeer((req, res) => {
      if (req.method === 'GET' && req.path === `/2010-04-01/Accounts/${SID}.json`)
        return json(res, 200, { sid: SID, status: 'active' });
      if (req.method === 'POST' && req.path === `/2010-04-01/Accounts/${SID}/Messages.json`)
        return json(res, 201, { sid: 'SM' + 'e'.repeat(32), status: 'queued' });
      json(res, 404, { message: 'not found' });
    });
    receiver = await startPeer((_req, res) => json(res, 200, {}));
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [twilio.host];
    return async () => {
      await twilio.close();
      await receiver.close();
    };
  });
  const t = useTestContext(kind, overrides);
  beforeAll(async () => {
    expect(
      (
        await t.call('POST', '/sms', {
          as: 'owner@globex.test',
          body: { provider: 'twilio', twilio: { accountSid: SID, authToken: TOKEN, phoneNumber: '+14155550100' } },
        })
      ).status,
    ).toBe(200);
    // ratio 0: only a caller's sampled traceparent makes a trace (parent-based sampling)
    await startTracing({ endpoint: receiver.url, ratio: 0, delayMs: 50 });
  });
  afterAll(() => stopTracing());

  it("a bootstrap is one trace under the caller's traceparent: the route, the service, the named read, its round trip", async () => {
    const parent = traceparent();
    const res = await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test', headers: { traceparent: parent.header } });
    expect(res.status).toBe(200);
    await stopTracing();
    const spans = spansOf(receiver.received).filter((s) => s.traceId === parent.traceId);
    const server = spans.find((s) => s.name === 'GET /api/admins/bootstrap')!;
    expect(server.parentSpanId).toBe(parent.spanId);
    expect(server.kind).toBe(2); // SERVER
    const service = spans.find((s) => s.name === 'service.readBootstrap')!;
    expect(service.parentSpanId).toBe(server.spanId);
    const read = spans.find((s) => s.name === 'bootstrap.read')!;
    expect(read.parentSpanId).toBe(service.spanId);
    // each round trip to the database, read lanes included, is a span of the trace
    expect(spans.filter((s) => s.name.startsWith('db.')).length).toBeGreaterThan(0);
    // names and attributes carry no values: no account id, e-mail or SQL text
    const text = JSON.stringify(spans);
    expect(text).not.toContain(t.account('acme').id);
    expect(text).not.toContain('owner@acme.test');
    expect(text).not.toMatch(/select /i);
    await startTracing({ endpoint: receiver.url, ratio: 0, delayMs: 50 });
  });

  it('a passcode send through Twilio is one trace: the route, the service, its named reads and writes, the Twilio call', async () => {
    const parent = traceparent();
    const res = await t.call('POST', '/one-time-passcode/actions/send', {
      as: 'owner@globex.test',
      body: { input: { phoneNumber: '+14155557201' } },
      headers: { traceparent: parent.header },
    });
    expect(res.status).toBe(201);
    await stopTracing();
    const spans = spansOf(receiver.received).filter((s) => s.traceId === parent.traceId);
    const names = spans.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/:app/actions/:key',
        'action.one-time-passcode.send',
        'otp.send.read',
        'otp.send.write',
        'twilio messages.create',
      ]),
    );
    const server = spans.find((s) => s.name === 'POST /api/:app/actions/:key')!;
    const service = spans.find((s) => s.name === 'action.one-time-passcode.send')!;
    expect(service.parentSpanId).toBe(server.spanId);
    expect(spans.find((s) => s.name === 'twilio messages.create')!.kind).toBe(3); // CLIENT
    expect(JSON.stringify(spans)).not.toContain('4155557201');
    await startTracing({ endpoint: receiver.url, ratio: 0, delayMs: 50 });
  });

  it("the job a request asks for is a trace of its own, its span linked to the request's", async () => {
    const exports = PRIVACY_JOBS.filter((j) => j.name === 'privacy.exports');
    // the job's row exists (the runner registers it) and it has just run: not due for a minute
    await runDueJobs(t.deps, exports);
    const parent = traceparent();
    const res = await t.call('POST', '/privacy/export-requests', {
      as: 'owner@globex.test',
      body: { phoneNumber: '+14155557202' },
      headers: { traceparent: parent.header },
    });
    expect(res.status).toBe(200);
    // the privacy.exports job, as the runner runs it
    expect(await runDueJobs(t.deps, exports, { registered: true })).toEqual(['privacy.exports']);
    await stopTracing();
    const spans = spansOf(receiver.received);
    const server = spans.find((s) => s.traceId === parent.traceId && s.name === 'POST /api/privacy/export-requests')!;
    expect(server).toBeDefined();
    const run = spans.find((s) => s.name === 'job privacy.exports')!;
    expect(run.traceId).not.toBe(parent.traceId);
    expect(run.links).toEqual([expect.objectContaining({ traceId: parent.traceId, spanId: server.spanId })]);
    // the run's own work is in its trace, under its span
    expect(spans.filter((s) => s.traceId === run.traceId && s.parentSpanId === run.spanId).length).toBeGreaterThan(0);
    await startTracing({ endpoint: receiver.url, ratio: 0, delayMs: 50 });
  });

  it('a request without a sampled traceparent is not traced at ratio 0', async () => {
    const before = spansOf(receiver.received).length;
    expect((await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test' })).status).toBe(200);
    await stopTracing();
    expect(spansOf(receiver.received).length).toBe(before);
  });
});
