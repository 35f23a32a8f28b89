import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { ActionResult, DashboardAnswer, SmsContentAnswer, TaskDetail, TaskRow } from '../../api/contract/platform';

const OTP = '/one-time-passcode';

async function lastCode(t: TestContext, to: string): Promise<string> {
  const list = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as {
    to: string;
    body: string;
  }[];
  return list.find((m) => m.to === to)!.body.match(/\b(\d{4,10})\b/)![1]!;
}

async function agentToken(t: TestContext, email = 'agent@acme.test'): Promise<string> {
  return t.deps.tokens.sign(
    { sub: `agent:${email}`, acc: t.account('acme').id, role: 'agent', root: false, ghost: false, email },
    3600,
  );
}

describe.each(DATABASE_KINDS)('Apps console API (%s)', (kind) => {
  const t = useTestContext(kind);
  const taskIds: string[] = [];
  // the demo account's usage before this test's sends (its opening ledger)
  let creditsBefore = 0;
  const creditsTile = async () => {
    const res = await t.call('GET', `${OTP}/dashboard?days=7`, {
      as: 'supervisor@acme.test',
      headers: { 'X-Time-Zone': 'Europe/Paris' },
    });
    return ((await res.json()) as DashboardAnswer).tiles.find((k) => k.key === 'credits')!.value ?? 0;
  };
  beforeAll(async () => {
    creditsBefore = await creditsTile();
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      t.clock.now = new Date(t.clock.now.getTime() + 1000);
      const phone = `+1202555${1000 + i}`;
      const res = await t.call('POST', `${OTP}/actions/send`, {
        as: 'admin@acme.test',
        body: { input: { phoneNumber: phone, customerRef: `C-${i}` } },
      });
      const sent = (await res.json()) as ActionResult;
      taskIds.push(sent.taskId);
      if (i < 2)
        await t.call('POST', `${OTP}/actions/check`, {
          as: 'supervisor@acme.test',
          body: { taskId: sent.taskId, input: { code: await lastCode(t, phone) } },
          headers: { 'user-agent': 'Test Browser', 'x-forwarded-for': '203.0.113.9' },
        });
    }
  });

  beforeEach(() => {
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
  });

  it('the dashboard counts sent, verified, conversion and credits of the period', async () => {
    const res = await t.call('GET', `${OTP}/dashboard?days=7`, {
      as: 'supervisor@acme.test',
      headers: { 'X-Time-Zone': 'Europe/Paris' },
    });
    const body = (await res.json()) as DashboardAnswer;
    expect(body.timeZone).toBe('Europe/Paris');
    expect(Object.fromEntries(body.tiles.map((k) => [k.key, k.value]))).toEqual({
      sent: 3,
      verified: 2,
      conversion: 66.7,
      credits: creditsBefore + 3,
    });
    expect(body.series[0]!.points).toHaveLength(7);
    expect(body.series[0]!.points.reduce((n, p) => n + p.value, 0)).toBe(3);
    expect(body.latest[0]!.id).toBe(taskIds[2]);
  });

  it('the credits tile is the figure the header shows, whatever the period picked', async () => {
    const usage = (await (await t.call('GET', `${OTP}/billing/usage`, { as: 'supervisor@acme.test' })).json()) as {
      credits: number;
      freeTier: number;
    };
    for (const days of [7, 30, 90]) {
      const res = await t.call('GET', `${OTP}/dashboard?days=${days}`, { as: 'supervisor@acme.test' });
      const tile = ((await res.json()) as DashboardAnswer).tiles.find((k) => k.key === 'credits')!;
      expect(tile.value, `${days} days`).toBe(usage.credits);
      expect(tile.caption).toMatch(/^of [\d,]+ (in the free trial|this billing period)$/);
    }
  });

  it('a period other than 7, 30 or 90 days answers 400 naming days', async () => {
    const res = await t.call('GET', `${OTP}/dashboard?days=12`, { as: 'owner@acme.test' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields.days).toBeDefined();
  });

  it('Authentications page by key: two pages of two and one, newest first, with x-count', async () => {
    const first = await t.call('GET', `${OTP}/tasks?limit=2`, { as: 'supervisor@acme.test' });
    expect(first.headers.get('x-count')).toBe('3');
    const page1 = (await first.json()) as TaskRow[];
    expect(page1.map((r) => r.id)).toEqual([taskIds[2], taskIds[1]]);
    expect(page1[0]!.phoneNumber).toBe('+1 •••• •• 1002');
    const second = await t.call('GET', `${OTP}/tasks?limit=2&lastKey=${encodeURIComponent(first.headers.get('x-last-key')!)}`, {
      as: 'supervisor@acme.test',
    });
    expect(((await second.json()) as TaskRow[]).map((r) => r.id)).toEqual([taskIds[0]]);
    expect(second.headers.get('x-last-key')).toBeNull();
    expect(second.headers.get('x-count')).toBeNull();
  });

  it('filters by status and by customer or phone', async () => {
    const approved = (await (await t.call('GET', `${OTP}/tasks?status=approved`, { as: 'owner@acme.test' })).json()) as TaskRow[];
    expect(approved).toHaveLength(2);
    const byCustomer = (await (await t.call('GET', `${OTP}/tasks?q=C-2`, { as: 'owner@acme.test' })).json()) as TaskRow[];
    expect(byCustomer.map((r) => r.id)).toEqual([taskIds[2]]);
    const byPhone = (await (
      await t.call('GET', `${OTP}/tasks?q=${encodeURIComponent('555 1001')}`, { as: 'owner@acme.test' })
    ).json()) as TaskRow[];
    expect(byPhone.map((r) => r.id)).toEqual([taskIds[1]]);
    expect((await t.call('GET', `${OTP}/tasks?status=bogus`, { as: 'owner@acme.test' })).status).toBe(400);
    expect((await t.call('GET', `${OTP}/tasks?from=2026-13-99x`, { as: 'owner@acme.test' })).status).toBe(400);
  });

  it('the detail panel shows the timeline with actor, IP and user agent', async () => {
    const res = await t.call('GET', `${OTP}/tasks/${taskIds[0]}`, { as: 'owner@acme.test' });
    const detail = (await res.json()) as TaskDetail;
    expect(detail.status).toBe('approved');
    expect(detail.events.map((e) => e.type)).toEqual(['sent', 'language', 'approved']);
    expect(detail.events[0]!.actor).not.toBe('System');
    expect(detail.events[1]!.description).toBe("Caller's language: English (none chosen)");
    expect(detail.events[2]).toMatchObject({ actor: 'Sam Silva', ip: '203.0.113.9', userAgent: 'Test Browser' });
    expect(detail.events[2]!.description).toContain('verified');
  });

  it('the CSV export holds the filtered list with formula-safe cells', async () => {
    const res = await t.call('GET', `${OTP}/tasks/export?status=approved`, { as: 'owner@acme.test' });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]!.Status).toBe('approved');
    expect((await t.call('GET', `${OTP}/tasks/export?to=nope`, { as: 'owner@acme.test' })).status).toBe(400);
  });

  it('general settings keep their defaults until saved and refuse values out of range', async () => {
    expect(await (await t.call('GET', `${OTP}/settings/general`, { as: 'owner@acme.test' })).json()).toEqual({
      codeLength: 6,
      validityMinutes: 10,
      maxChecks: 5,
      sendsPer10Minutes: 5,
    });
    const bad = await t.call('PUT', `${OTP}/settings/general`, {
      as: 'owner@acme.test',
      body: { codeLength: 12, validityMinutes: 1, maxChecks: 5, sendsPer10Minutes: 5 },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { fields: object }).fields).sort()).toEqual(['codeLength', 'validityMinutes']);
    const saved = await t.call('PUT', `${OTP}/settings/general`, {
      as: 'owner@acme.test',
      body: { codeLength: 8, validityMinutes: 5, maxChecks: 3, sendsPer10Minutes: 4 },
    });
    expect(await saved.json()).toEqual({ codeLength: 8, validityMinutes: 5, maxChecks: 3, sendsPer10Minutes: 4 });
    const sent = (await (
      await t.call('POST', `${OTP}/actions/send`, { as: 'owner@acme.test', body: { input: { phoneNumber: '+12025559999' } } })
    ).json()) as ActionResult;
    expect(await lastCode(t, '+12025559999')).toHaveLength(8);
    expect(sent.status).toBe('pending');
    await t.call('PUT', `${OTP}/settings/general`, {
      as: 'owner@acme.test',
      body: { codeLength: 6, validityMinutes: 10, maxChecks: 5, sendsPer10Minutes: 5 },
    });
  });

  it('an SMS template must keep {{code}} and use only its placeholders; an empty body resets it', async () => {
    const missing = await t.call('PUT', `${OTP}/settings/sms-content`, {
      as: 'owner@acme.test',
      body: { templates: { passcode: 'Hello from {{company}}' } },
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { fields: Record<string, string> }).fields['templates.passcode']).toBe(
      'The message must contain {{code}}',
    );
    const unknown = await t.call('PUT', `${OTP}/settings/sms-content`, {
      as: 'owner@acme.test',
      body: { templates: { passcode: '{{code}} {{link}}' } },
    });
    expect(unknown.status).toBe(400);
    const saved = (await (
      await t.call('PUT', `${OTP}/settings/sms-content`, {
        as: 'owner@acme.test',
        body: { templates: { passcode: 'Code {{code}} for {{company}}' } },
      })
    ).json()) as SmsContentAnswer;
    expect(saved.templates[0]!.body).toBe('Code {{code}} for {{company}}');
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    await t.call('POST', `${OTP}/actions/send`, { as: 'owner@acme.test', body: { input: { phoneNumber: '+12025558888' } } });
    const outbox = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as {
      to: string;
      body: string;
    }[];
    expect(outbox[0]!.body).toMatch(/^Code \d{6} for /);
    const reset = (await (
      await t.call('PUT', `${OTP}/settings/sms-content`, { as: 'owner@acme.test', body: { templates: { passcode: '' } } })
    ).json()) as SmsContentAnswer;
    expect(reset.templates[0]!.body).toBe(reset.templates[0]!.defaultBody);
  });

  it('"Send test SMS" puts the filled message in the development outbox', async () => {
    const res = await t.call('POST', `${OTP}/settings/sms-content/test`, {
      as: 'owner@acme.test',
      body: { phoneNumber: '+12025557777', message: 'Test {{code}} from {{company}}' },
    });
    expect(res.status).toBe(200);
    const outbox = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as {
      to: string;
      body: string;
    }[];
    expect(outbox[0]).toMatchObject({ to: '+12025557777', body: 'Test 123456 from Acme Support' });
  });

  it('an agent session runs the actions and polls the status, and every other route refuses it', async () => {
    const token = await agentToken(t);
    const apps = (await (await t.call('GET', '/agent/apps', { token })).json()) as { apps: { id: string }[] };
    expect(apps.apps.map((a) => a.id)).toContain('one-time-passcode');
    const sent = await t.call('POST', `${OTP}/actions/send`, { token, body: { input: { phoneNumber: '+12025556666' } } });
    expect(sent.status).toBe(201);
    const result = (await sent.json()) as ActionResult;
    expect((result.task as { agent: string }).agent).toBe('agent@acme.test');
    expect((await t.call('GET', `${OTP}/tasks/${result.taskId}/status`, { token })).status).toBe(200);
    const refused = [
      '/admins/bootstrap',
      `${OTP}/tasks`,
      `${OTP}/tasks/${result.taskId}`,
      `${OTP}/dashboard`,
      '/dev/sms-outbox',
      '/audit-log',
      '/notifications',
      '/results/customer?customerRef=x',
      '/accounts/developer',
      '/sms',
      `${OTP}/settings/general`,
      `${OTP}/webhooks`,
    ];
    for (const path of refused) {
      const res = await t.call('GET', path, { token });
      expect([path, res.status]).toEqual([path, 403]);
    }
    const audit = (await (await t.call('GET', '/audit-log', { as: 'owner@acme.test' })).json()) as {
      admin?: { firstName: string };
      event: string;
    }[];
    expect(audit.find((e) => e.event === 'otp.sent')?.admin?.firstName).toBe('agent@acme.test');
  });

  it('an action with a bad phone number answers 400 naming input.phoneNumber', async () => {
    const res = await t.call('POST', `${OTP}/actions/send`, { as: 'owner@acme.test', body: { input: { phoneNumber: '12' } } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields['input.phoneNumber']).toBeDefined();
  });

  it('the development outbox lists the newest messages first and says when older ones exist', async () => {
    const all = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as { id: string }[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const whole = await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' });
    expect(whole.headers.get('x-more')).toBe('false');
    const two = await t.call('GET', '/dev/sms-outbox?limit=2', { as: 'owner@acme.test' });
    expect(two.headers.get('x-more')).toBe('true');
    expect(((await two.json()) as { id: string }[]).map((m) => m.id)).toEqual(all.slice(0, 2).map((m) => m.id));
    const exact = await t.call('GET', `/dev/sms-outbox?limit=${all.length}`, { as: 'owner@acme.test' });
    expect(exact.headers.get('x-more')).toBe('false');
  });

  it.each(['0', '1001', 'ten', '-1', '2.5'])(
    'the development outbox refuses limit=%s with a 400 that names the rule',
    async (limit) => {
      const res = await t.call('GET', `/dev/sms-outbox?limit=${limit}`, { as: 'owner@acme.test' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('limit is a number from 1 to 1000'),
      });
    },
  );

  it('SMS Configuration offers the development outbox outside production', async () => {
    expect(await (await t.call('GET', '/sms', { as: 'owner@acme.test' })).json()).toEqual({
      provider: 'dev-outbox',
      devOutboxAvailable: true,
    });
  });

  // last: it adds a task the paging tests above would count
  it('a send answered while texts go to the development outbox says so, for the result to link to it', async () => {
    const res = await t.call('POST', `${OTP}/actions/send`, {
      as: 'admin@acme.test',
      body: { input: { phoneNumber: '+12025559876', customerRef: 'C-OUTBOX' } },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as ActionResult).devOutbox).toBe(true);
  });
});

describe.each(DATABASE_KINDS)('Apps console API in production (%s)', (kind) => {
  const t = useTestContext(kind, { env: 'production' });

  it('never offers or accepts the development outbox, and has no outbox page', async () => {
    expect(await (await t.call('GET', '/sms', { as: 'owner@acme.test' })).json()).toEqual({ provider: null });
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(400);
    expect((await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).status).toBe(404);
  });
});
