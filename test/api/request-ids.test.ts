import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { startLogging, stopLogging } from '../../api/observability/logger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(DATABASE_KINDS)('request ids and request log lines (%s)', (kind) => {
  const t = useTestContext(kind);
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    await startLogging('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  });
  afterAll(() => stopLogging());
  const linesOf = (requestId: string) => lines.filter((l) => l.requestId === requestId);

  it('an answer to a request without X-Request-Id carries a new one', async () => {
    const res = await t.call('GET', '/health');
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it("the caller's X-Request-Id comes back on the answer", async () => {
    const res = await t.call('GET', '/admins/bootstrap', {
      as: 'owner@acme.test',
      headers: { 'x-request-id': 'lb-7f3a9c21.000042' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a9c21.000042');
  });

  it('an X-Request-Id that is too long or not plain is replaced by a new one', async () => {
    for (const given of ['x'.repeat(129), 'has spaces in it', 'quote"and;semicolon', 'short']) {
      const res = await t.call('GET', '/health', { headers: { 'x-request-id': given } });
      expect(res.headers.get('x-request-id'), given).toMatch(UUID);
    }
  });

  it('every error answer says its request id in the body, as in the header', async () => {
    const answers = [
      await t.call('GET', '/admins/bootstrap'),
      await t.call('GET', '/no/such/route', { as: 'owner@acme.test' }),
      await t.call('POST', '/invitations', { as: 'owner@acme.test', body: { email: 'not an e-mail' } }),
      await t.app.request('/nothing-here.json'),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      const body = (await res.json()) as { code: string; requestId: string };
      expect(body.code).toBeTruthy();
      expect(body.requestId).toMatch(UUID);
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('one JSON log line per request: route template, status, duration, account; no query string or token', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const res = await t.app.request(`/api/admins/bootstrap?token=${token}`, { headers: { 'x-request-id': 'support-case-0001' } });
    expect(res.status).toBe(200);
    const mine = linesOf('support-case-0001');
    expect(mine).toHaveLength(1);
    const line = mine[0]!;
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      route: '/api/admins/bootstrap',
      status: 200,
      accountId: t.account('acme').id,
    });
    expect(typeof line.durationMs).toBe('number');
    expect(Date.parse(String(line.time))).not.toBeNaN();
    const text = JSON.stringify(line);
    expect(text).not.toContain(token);
    expect(text).not.toContain('?');
    expect(text).not.toContain('owner@acme.test');
  });

  it('a route with an id is logged by its template, never the id', async () => {
    const id = '3f1c2b8e-0000-4000-8000-000000000001';
    const res = await t.call('DELETE', `/admins/${id}`, {
      as: 'owner@acme.test',
      headers: { 'x-request-id': 'support-case-0002' },
    });
    const line = linesOf('support-case-0002')[0]!;
    expect(line.status).toBe(res.status);
    expect(String(line.route)).toContain(':');
    expect(JSON.stringify(line)).not.toContain(id);
  });
});
