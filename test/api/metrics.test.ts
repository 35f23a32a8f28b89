import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { disableMetrics, enableMetrics, type Metrics } from '../../api/observability/metrics';
import { runDueJobs } from '../../api/jobs/runner';

/** A sample's value from the text format: the line whose name and labels are exactly these. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-z_:]+)(?:\{(.*)\})? (\S+)$/);
    if (!m || m[1] !== name) continue;
    const got = (m[2] ? (m[2].match(/[a-z_]+="(?:[^"\\]|\\.)*"/g) ?? []) : []).sort();
    if (got.length === wanted.length && got.every((l, i) => l === wanted[i])) return Number(m[3]);
  }
  return 0;
}

describe.each(DATABASE_KINDS)('metrics (%s)', (kind) => {
  const t = useTestContext(kind);
  let metrics: Metrics;
  beforeAll(async () => {
    metrics = await enableMetrics();
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
  });
  afterAll(() => disableMetrics());
  const scrape = () => metrics.registry.metrics();
  const send = (phoneNumber: string) =>
    t.call('POST', '/one-time-passcode/actions/send', { as: 'admin@acme.test', body: { input: { phoneNumber } } });

  it('after a known load the counts say it: requests by route template and status, SMS sent and refused', async () => {
    const before = await scrape();
    const route = { route: '/api/admins/bootstrap', method: 'GET', status: '200' };
    for (let i = 0; i < 7; i++) expect((await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test' })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await send(`+1415555${7100 + i}`)).status).toBe(201);
    // a premium-rate number: refused by the guard, nothing sent
    const refused = await send('+19005550123');
    expect(refused.status, await refused.clone().text()).toBe(422);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('switchboard_http_request_duration_seconds_count', route)).toBe(7);
    expect(delta('switchboard_sms_total', { outcome: 'sent', reason: 'outbox' })).toBe(3);
    expect(delta('switchboard_sms_total', { outcome: 'refused', reason: 'NUMBER_TYPE_NOT_ALLOWED' })).toBe(1);
    expect(
      delta('switchboard_http_request_duration_seconds_count', {
        route: '/api/:app/actions/:key',
        method: 'POST',
        status: '422',
      }),
    ).toBe(1);
  });

  it('labels hold no ids, phone numbers or account names', async () => {
    await t.call('DELETE', `/admins/${t.account('acme').adminIds['admin@acme.test'] ?? '00000000-0000-4000-8000-000000000000'}`, {
      as: 'owner@acme.test',
    });
    const text = await scrape();
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(text).not.toMatch(/\+\d{6,}/);
    expect(text).not.toContain('Acme');
    expect(text).toContain('route="/api/admins/:id"');
  });

  it('a periodic job run is counted by job and outcome, with its lag', async () => {
    const before = await scrape();
    const failing = {
      name: 'metrics-test-failing',
      intervalSeconds: 3600,
      run: async () => {
        throw new Error('no');
      },
    };
    const working = { name: 'metrics-test-working', intervalSeconds: 3600, run: async () => {} };
    await runDueJobs(t.deps, [failing, working]);
    const after = await scrape();
    expect(
      sample(after, 'switchboard_job_runs_total', { job: 'metrics-test-working', outcome: 'ok' }) -
        sample(before, 'switchboard_job_runs_total', { job: 'metrics-test-working', outcome: 'ok' }),
    ).toBe(1);
    expect(sample(after, 'switchboard_job_runs_total', { job: 'metrics-test-failing', outcome: 'failed' })).toBe(1);
    expect(sample(after, 'switchboard_job_lag_seconds_count', { job: 'metrics-test-working' })).toBe(1);
  });

  it("the text passes Debian's promtool check metrics", async () => {
    const text = await scrape();
    // exits non-zero on a malformed exposition or a lint problem (a counter without _total, ...)
    const out = execFileSync('promtool', ['check', 'metrics'], {
      input: text,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
  });
});
