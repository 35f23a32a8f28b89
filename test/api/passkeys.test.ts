import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { SoftAuthenticator } from '../../api/apps/passkeys/soft-authenticator';
import type { PasskeyCeremonyResult, PasskeyCredential, PasskeyTask } from '../../api/contract/apps/passkeys';
import type { TaskDetail } from '../../api/contract/platform';

// Passkey enrollments and verifications through /api/v1, with the customer page's ceremony
// calls answered by a software authenticator (ES256, attestation "none", a real counter). The
// API tests run on http://localhost, so the RP ID is `localhost` and the origin http://localhost.

const ORIGIN = 'http://localhost';
type Json = Record<string, unknown>;

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

async function v1(t: TestContext, key: string, method: string, path: string, body?: unknown) {
  return t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });
}

/** The link token of the last message the development outbox holds for a number. */
async function lastLinkToken(t: TestContext, as: string, to: string): Promise<string> {
  const list = (await (await t.call('GET', '/dev/sms-outbox', { as })).json()) as { to: string; body: string }[];
  return list.find((m) => m.to === to)!.body.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
}

function page(t: TestContext, token: string, step: 'options' | 'verify' | 'abandoned', body?: unknown) {
  return t.app.request(`/api/c/${token}/passkey/${step}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (test phone)', 'x-forwarded-for': '203.0.113.9' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function options(t: TestContext, token: string): Promise<Json> {
  const res = await page(t, token, 'options');
  expect(res.status).toBe(200);
  return ((await res.json()) as { options: Json }).options;
}

let phoneCounter = 0;
const freshPhone = () => `+1415556${String(1000 + phoneCounter++).padStart(4, '0')}`;

describe.each(DATABASE_KINDS)('Passkeys (%s)', (kind) => {
  const t = useTestContext(kind);
  let acmeKey: string;
  let globexKey: string;
  beforeAll(async () => {
    for (const owner of ['owner@acme.test', 'owner@globex.test']) {
      expect((await t.call('POST', '/sms', { as: owner, body: { provider: 'dev-outbox' } })).status).toBe(200);
    }
    // both accounts subscribed, so a test never runs out of trial credits
    await t.db.system(async (trx) => {
      for (const key of ['acme', 'globex'] as const) {
        await sql`insert into app_billing (account_id, app, status, credits, free_tier) values (${t.account(key).id}, 'passkeys', 'subscription', 0, 1000)
          on conflict (account_id, app) do update set status = 'subscription', free_tier = 1000`.execute(trx);
      }
    });
    acmeKey = await apiKeyOf(t, 'owner@acme.test');
    globexKey = await apiKeyOf(t, 'owner@globex.test');
  });
  beforeEach(() => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
  });

  /** Enrolls `customerRef` of the account behind `key` with `device`; answers the task and the credential id. */
  async function enroll(key: string, owner: string, customerRef: string, device: SoftAuthenticator, displayName?: string) {
    const phone = freshPhone();
    const res = await v1(t, key, 'POST', '/passkeys/enrollments', {
      customerRef,
      phoneNumber: phone,
      displayName,
      agent: 'maya@acme.test',
    });
    expect(res.status).toBe(201);
    const task = (await res.json()) as PasskeyTask;
    const token = await lastLinkToken(t, owner, phone);
    const created = device.register(await options(t, token), ORIGIN);
    const verified = await page(t, token, 'verify', created);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ ok: true, title: 'Passkey created' });
    return { task, credentialId: created.id };
  }

  /** Sends a verification link; answers its task, token and phone. */
  async function verification(key: string, owner: string, customerRef: string) {
    const phone = freshPhone();
    const res = await v1(t, key, 'POST', '/passkeys/verifications', { customerRef, phoneNumber: phone });
    expect(res.status).toBe(201);
    return { task: (await res.json()) as PasskeyTask, token: await lastLinkToken(t, owner, phone) };
  }

  async function taskOf(key: string, kind: 'enrollments' | 'verifications', id: string): Promise<PasskeyTask> {
    return (await (await v1(t, key, 'GET', `/passkeys/${kind}/${id}`)).json()) as PasskeyTask;
  }

  async function timeline(id: string): Promise<TaskDetail['events']> {
    return ((await (await t.call('GET', `/passkeys/tasks/${id}`, { as: 'owner@acme.test' })).json()) as TaskDetail).events;
  }

  const webhookTypes = (taskId: string) =>
    t.db.system(async (trx) =>
      (
        await sql<{
          type: string;
        }>`select type from webhook_events where payload->'data'->>'id' = ${taskId} order by created_at`.execute(trx)
      ).rows.map((r) => r.type),
    );

  it('a customer enrolls through the link, then verifies with the same passkey; both show with their timeline, credits and webhooks', async () => {
    const device = new SoftAuthenticator({ backupEligible: true, backedUp: true });
    const { task, credentialId } = await enroll(acmeKey, 'owner@acme.test', 'CUST-2001', device, 'Ada Lovelace');
    expect(task).toMatchObject({ kind: 'enrollment', status: 'link_sent', customerRef: 'CUST-2001', agent: 'maya@acme.test' });
    const enrolled = await taskOf(acmeKey, 'enrollments', task.id);
    expect(enrolled).toMatchObject({ status: 'succeeded', credentialId, failureReason: null });

    const list = (await (
      await t.call('GET', '/passkeys/credentials?q=CUST-2001', { as: 'supervisor@acme.test' })
    ).json()) as PasskeyCredential[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      credentialId,
      displayName: 'Ada Lovelace',
      authenticator: 'Unknown authenticator',
      synced: true,
      backedUp: true,
      transports: ['internal', 'hybrid'],
      rpId: 'localhost',
      signCount: 0,
      lastUsedAt: null,
      revokedAt: null,
    });

    const credits = () =>
      t.db.system((trx) =>
        trx
          .selectFrom('app_billing')
          .select('credits')
          .where('app', '=', 'passkeys')
          .where('account_id', '=', t.account('acme').id)
          .executeTakeFirstOrThrow(),
      );
    const before = (await credits()).credits;
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    const { task: v, token } = await verification(acmeKey, 'owner@acme.test', 'CUST-2001');
    expect((await credits()).credits).toBe(before + 1);
    const opts = await options(t, token);
    expect((opts.allowCredentials as { id: string }[]).map((c) => c.id)).toEqual([credentialId]);
    expect(opts.rpId).toBe('localhost');
    const res = await page(t, token, 'verify', device.authenticate(opts, ORIGIN));
    expect(await res.json()).toMatchObject({ ok: true, retry: false });
    expect(await taskOf(acmeKey, 'verifications', v.id)).toMatchObject({ status: 'succeeded', credentialId });

    const after = (await (
      await t.call('GET', '/passkeys/credentials?q=CUST-2001', { as: 'owner@acme.test' })
    ).json()) as PasskeyCredential[];
    expect(after[0]!.signCount).toBe(1);
    expect(after[0]!.lastUsedAt).toBe(t.clock.now.toISOString());

    const events = await timeline(v.id);
    expect(events.map((e) => e.description)).toEqual([
      'Verification link sent to +1 •••• •• ' + events[0]!.description.slice(-4),
      "Caller's language: their browser's (the SMS is in English)",
      'Authentication started',
      'Verified with a passkey (Unknown authenticator)',
    ]);
    expect(events[2]).toMatchObject({ actor: 'Customer', ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (test phone)' });
    expect(await webhookTypes(task.id)).toEqual(['passkey.enrolled']);
    expect(await webhookTypes(v.id)).toEqual(['passkey.verified']);

    // both are in Activity, and the dashboard counts them
    const activity = (await (await t.call('GET', '/passkeys/tasks?q=CUST-2001', { as: 'owner@acme.test' })).json()) as {
      id: string;
      values: Json;
    }[];
    expect(activity.map((r) => [r.id, r.values.kind])).toEqual([
      [v.id, 'Verification'],
      [task.id, 'Enrollment'],
    ]);
    const dash = (await (await t.call('GET', '/passkeys/dashboard?days=7', { as: 'owner@acme.test' })).json()) as {
      tiles: { key: string; value: number }[];
    };
    expect(dash.tiles.find((x) => x.key === 'registrations')!.value).toBeGreaterThanOrEqual(1);
    expect(dash.tiles.find((x) => x.key === 'verified')!.value).toBeGreaterThanOrEqual(1);

    // the customer page is spent
    const spent = await t.app.request(`/c/${token}`);
    expect(spent.status).toBe(410);
    expect(await spent.text()).toContain('This link has already been used');
  });

  it('a replayed answer is refused: the spent link answers 410, and in a new verification its challenge was never issued', async () => {
    const device = new SoftAuthenticator();
    await enroll(acmeKey, 'owner@acme.test', 'CUST-2002', device);
    const first = await verification(acmeKey, 'owner@acme.test', 'CUST-2002');
    const answer = device.authenticate(await options(t, first.token), ORIGIN);
    expect(await (await page(t, first.token, 'verify', answer)).json()).toMatchObject({ ok: true });
    const replay = await page(t, first.token, 'verify', answer);
    expect(replay.status).toBe(410);
    expect(await replay.json()).toMatchObject({ code: 'LINK_NOT_USABLE' });

    const second = await verification(acmeKey, 'owner@acme.test', 'CUST-2002');
    await options(t, second.token);
    const res = (await (await page(t, second.token, 'verify', answer)).json()) as PasskeyCeremonyResult;
    expect(res).toMatchObject({ ok: false, retry: true });
    expect((await timeline(second.task.id)).at(-1)!.description).toBe(
      'Authentication refused: the challenge was not issued for this link',
    );
    const creds = (await (
      await t.call('GET', '/passkeys/credentials?q=CUST-2002', { as: 'owner@acme.test' })
    ).json()) as PasskeyCredential[];
    expect(creds[0]!.signCount).toBe(1);

    // a challenge answered once is spent, even when that answer was refused
    const opts = await options(t, second.token);
    const broken = device.authenticate(opts, ORIGIN, { tamper: true });
    expect(await (await page(t, second.token, 'verify', broken)).json()).toMatchObject({ ok: false, retry: false });
    expect(await taskOf(acmeKey, 'verifications', second.task.id)).toMatchObject({
      status: 'failed',
      failureReason: 'bad_signature',
    });
  });

  it('an expired challenge is refused and the customer may try again with a fresh one', async () => {
    const device = new SoftAuthenticator();
    await enroll(acmeKey, 'owner@acme.test', 'CUST-2003', device);
    const { task, token } = await verification(acmeKey, 'owner@acme.test', 'CUST-2003');
    const stale = await options(t, token);
    t.clock.now = new Date(t.clock.now.getTime() + 6 * 60_000);
    expect(await (await page(t, token, 'verify', device.authenticate(stale, ORIGIN))).json()).toMatchObject({
      ok: false,
      retry: true,
    });
    expect(await (await page(t, token, 'verify', device.authenticate(await options(t, token), ORIGIN))).json()).toMatchObject({
      ok: true,
    });
    expect(await taskOf(acmeKey, 'verifications', task.id)).toMatchObject({ status: 'succeeded' });
  });

  it('an answer made for another origin is refused as wrong origin, and the task fails with passkey.failed', async () => {
    const device = new SoftAuthenticator();
    await enroll(acmeKey, 'owner@acme.test', 'CUST-2004', device);
    const { task, token } = await verification(acmeKey, 'owner@acme.test', 'CUST-2004');
    const res = (await (
      await page(t, token, 'verify', device.authenticate(await options(t, token), 'https://acme-support.evil.test'))
    ).json()) as PasskeyCeremonyResult;
    expect(res).toMatchObject({ ok: false, retry: false, title: 'Not confirmed' });
    expect(await taskOf(acmeKey, 'verifications', task.id)).toMatchObject({ status: 'failed', failureReason: 'wrong_origin' });
    expect((await timeline(task.id)).at(-1)!.description).toMatch(/^Authentication failed: Wrong origin/);
    expect(await webhookTypes(task.id)).toEqual(['passkey.failed']);

    // registration from another origin too
    const phone = freshPhone();
    const enrollment = (await (
      await v1(t, acmeKey, 'POST', '/passkeys/enrollments', { customerRef: 'CUST-2004b', phoneNumber: phone })
    ).json()) as PasskeyTask;
    const etoken = await lastLinkToken(t, 'owner@acme.test', phone);
    await page(t, etoken, 'verify', new SoftAuthenticator().register(await options(t, etoken), 'http://localhost:9999'));
    expect(await taskOf(acmeKey, 'enrollments', enrollment.id)).toMatchObject({
      status: 'failed',
      failureReason: 'wrong_origin',
    });
    const creds = (await (
      await t.call('GET', '/passkeys/credentials?q=CUST-2004b', { as: 'owner@acme.test' })
    ).json()) as PasskeyCredential[];
    expect(creds).toEqual([]);
  });

  it('a signature counter that goes backwards is refused and the stored counter is kept', async () => {
    const device = new SoftAuthenticator();
    await enroll(acmeKey, 'owner@acme.test', 'CUST-2005', device);
    for (const counter of [5, 9]) {
      const { token } = await verification(acmeKey, 'owner@acme.test', 'CUST-2005');
      expect(
        await (await page(t, token, 'verify', device.authenticate(await options(t, token), ORIGIN, { counter }))).json(),
      ).toMatchObject({ ok: true });
    }
    const { task, token } = await verification(acmeKey, 'owner@acme.test', 'CUST-2005');
    await page(t, token, 'verify', device.authenticate(await options(t, token), ORIGIN, { counter: 7 }));
    expect(await taskOf(acmeKey, 'verifications', task.id)).toMatchObject({
      status: 'failed',
      failureReason: 'counter_regression',
    });
    expect((await timeline(task.id)).at(-1)!.description).toMatch(/^Authentication failed: Counter went backwards/);
    const creds = (await (
      await t.call('GET', '/passkeys/credentials?q=CUST-2005', { as: 'owner@acme.test' })
    ).json()) as PasskeyCredential[];
    expect(creds[0]!.signCount).toBe(9);
  });

  it("another account's credential, or another customer's, is an unknown credential", async () => {
    const globexDevice = new SoftAuthenticator();
    const { credentialId: globexCredential } = await enroll(globexKey, 'owner@globex.test', 'CUST-2006', globexDevice);
    const acmeDevice = new SoftAuthenticator();
    await enroll(acmeKey, 'owner@acme.test', 'CUST-2006', acmeDevice);
    const { credentialId: otherCustomer } = await enroll(acmeKey, 'owner@acme.test', 'CUST-2007', acmeDevice);

    const a = await verification(acmeKey, 'owner@acme.test', 'CUST-2006');
    const optsA = await options(t, a.token);
    expect((optsA.allowCredentials as unknown[]).length).toBe(1);
    await page(t, a.token, 'verify', globexDevice.authenticate(optsA, ORIGIN, { credentialId: globexCredential }));
    expect(await taskOf(acmeKey, 'verifications', a.task.id)).toMatchObject({
      status: 'failed',
      failureReason: 'unknown_credential',
    });

    const b = await verification(acmeKey, 'owner@acme.test', 'CUST-2006');
    await page(t, b.token, 'verify', acmeDevice.authenticate(await options(t, b.token), ORIGIN, { credentialId: otherCustomer }));
    expect(await taskOf(acmeKey, 'verifications', b.task.id)).toMatchObject({
      status: 'failed',
      failureReason: 'unknown_credential',
    });

    // and neither account sees the other's credentials or tasks
    const globexList = (await (
      await t.call('GET', '/passkeys/credentials', { as: 'owner@globex.test' })
    ).json()) as PasskeyCredential[];
    expect(globexList.map((c) => c.credentialId)).toEqual([globexCredential]);
    expect((await v1(t, globexKey, 'GET', `/passkeys/verifications/${a.task.id}`)).status).toBe(404);
  });

  it('a verification for a customer with no passkey answers 409 NO_PASSKEY and sends nothing', async () => {
    const phone = freshPhone();
    const res = await v1(t, acmeKey, 'POST', '/passkeys/verifications', { customerRef: 'CUST-NOBODY', phoneNumber: phone });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'NO_PASSKEY' });
    const outbox = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as { to: string }[];
    expect(outbox.some((m) => m.to === phone)).toBe(false);
    const bad = await v1(t, acmeKey, 'POST', '/passkeys/enrollments', { customerRef: ' ', phoneNumber: 'nope' });
    expect(bad.status).toBe(400);
  });

  it('revoking a passkey is admin-only, audited, sends passkey.revoked, and the customer can no longer verify with it', async () => {
    const device = new SoftAuthenticator();
    const { task: enrollment } = await enroll(acmeKey, 'owner@acme.test', 'CUST-2008', device);
    // a link sent before the revocation opens a clear page, and its ceremony is refused
    const pending = await verification(acmeKey, 'owner@acme.test', 'CUST-2008');
    const [cred] = (await (
      await t.call('GET', '/passkeys/credentials?q=CUST-2008', { as: 'owner@acme.test' })
    ).json()) as PasskeyCredential[];
    expect((await t.call('POST', `/passkeys/credentials/${cred!.id}/revoke`, { as: 'supervisor@acme.test' })).status).toBe(403);
    const revoked = await t.call('POST', `/passkeys/credentials/${cred!.id}/revoke`, { as: 'admin@acme.test' });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as PasskeyCredential).revokedAt).toBe(t.clock.now.toISOString());

    const audit = (await (await t.call('GET', '/audit-log', { as: 'owner@acme.test' })).json()) as {
      admin?: { firstName: string };
      event: string;
      description: string;
    }[];
    expect(audit.find((e) => e.event === 'passkey.revoked')).toMatchObject({ admin: { firstName: 'Adam' } });
    const events = await t.db.system(
      async (trx) =>
        (await sql<{ type: string }>`select type from webhook_events where payload->'data'->>'id' = ${cred!.id}`.execute(trx))
          .rows,
    );
    expect(events.map((e) => e.type)).toEqual(['passkey.revoked']);
    expect((await timeline(enrollment.id)).at(-1)).toMatchObject({ type: 'revoked', actor: 'Adam Adeyemi' });

    const pageHtml = await t.app.request(`/c/${pending.token}`);
    expect(pageHtml.status).toBe(200);
    expect(await pageHtml.text()).toContain('You have no passkey with us');
    const refused = await page(t, pending.token, 'options');
    expect(refused.status).toBe(409);
    expect(await taskOf(acmeKey, 'verifications', pending.task.id)).toMatchObject({
      status: 'failed',
      failureReason: 'no_passkey',
    });

    const again = await v1(t, acmeKey, 'POST', '/passkeys/verifications', {
      customerRef: 'CUST-2008',
      phoneNumber: freshPhone(),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'NO_PASSKEY' });
  });

  it('a cancelled prompt is recorded with the customer and may be tried again; an expired link fails the task', async () => {
    const device = new SoftAuthenticator();
    await enroll(acmeKey, 'owner@acme.test', 'CUST-2009', device);
    const { task, token } = await verification(acmeKey, 'owner@acme.test', 'CUST-2009');
    const html = await (await t.app.request(`/c/${token}`)).text();
    expect(html).toContain('Confirm it is you');
    expect(html).toContain('Use my passkey');
    await options(t, token);
    expect(await (await page(t, token, 'abandoned', { reason: 'cancelled' })).json()).toMatchObject({ ok: false, retry: true });
    expect(await taskOf(acmeKey, 'verifications', task.id)).toMatchObject({ status: 'started', failureReason: 'cancelled' });
    expect((await timeline(task.id)).at(-1)).toMatchObject({
      description: 'Authentication failed: Cancelled or timed out',
      ip: '203.0.113.9',
    });

    t.clock.now = new Date(t.clock.now.getTime() + 16 * 60_000);
    expect((await page(t, token, 'options')).status).toBe(410);
    expect(await taskOf(acmeKey, 'verifications', task.id)).toMatchObject({ status: 'expired', failureReason: 'expired' });
    expect((await t.app.request(`/c/${token}`)).status).toBe(410);
  });

  it("the caller's system cancels an enrollment through /api/v1: its link stops working, and no other path or account reaches it", async () => {
    const phone = freshPhone();
    const task = (await (
      await v1(t, acmeKey, 'POST', '/passkeys/enrollments', { customerRef: 'CUST-2011', phoneNumber: phone })
    ).json()) as PasskeyTask;
    const token = await lastLinkToken(t, 'owner@acme.test', phone);
    expect((await v1(t, acmeKey, 'POST', `/passkeys/verifications/${task.id}/cancel`, {})).status).toBe(404);
    expect((await v1(t, globexKey, 'POST', `/passkeys/enrollments/${task.id}/cancel`, {})).status).toBe(404);
    expect((await v1(t, acmeKey, 'POST', '/passkeys/enrollments/not-an-id/cancel', {})).status).toBe(400);
    expect(await taskOf(acmeKey, 'enrollments', task.id)).toMatchObject({ status: 'link_sent' });
    const res = await v1(t, acmeKey, 'POST', `/passkeys/enrollments/${task.id}/cancel`, { agent: 'maya@acme.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: task.id, status: 'cancelled' });
    expect((await t.app.request(`/c/${token}`)).status).toBe(410);
    // a finished task is answered as it is
    expect(await (await v1(t, acmeKey, 'POST', `/passkeys/enrollments/${task.id}/cancel`, {})).json()).toMatchObject({
      status: 'cancelled',
    });
  });

  it('an enrollment page with no name given greets neutrally, never by the internal reference', async () => {
    const phone = freshPhone();
    const res = await t.call('POST', '/passkeys/actions/enroll', {
      as: 'supervisor@acme.test',
      body: { input: { customerRef: 'CUST-NU-PK2', phoneNumber: phone } },
    });
    expect(res.status).toBe(201);
    const html = await (await t.app.request(`/c/${await lastLinkToken(t, 'owner@acme.test', phone)}`)).text();
    expect(html).not.toContain('CUST-NU-PK2');
    expect(html).not.toContain('Hello');
    expect(html).toMatch(/asks you to create a passkey on this device/);
  });

  it('the agent actions enroll, cancel and verify, and an enrollment page names the customer', async () => {
    const phone = freshPhone();
    const res = await t.call('POST', '/passkeys/actions/enroll', {
      as: 'supervisor@acme.test',
      body: { input: { customerRef: 'CUST-2010', phoneNumber: phone, displayName: 'Grace Hopper' } },
    });
    expect(res.status).toBe(201);
    const result = (await res.json()) as { taskId: string; status: string; message: string };
    // the agent's screen follows an open task as pending
    expect(result).toMatchObject({ status: 'pending', task: { status: 'link_sent' } });
    expect(result.message).toMatch(/^Enrollment link sent to/);
    const token = await lastLinkToken(t, 'owner@acme.test', phone);
    const html = await (await t.app.request(`/c/${token}`)).text();
    expect(html).toContain('Hello Grace Hopper.');
    expect(html).toContain('Create a passkey');
    const cancelled = await t.call('POST', '/passkeys/actions/cancel', {
      as: 'supervisor@acme.test',
      body: { taskId: result.taskId, input: {} },
    });
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled', task: { status: 'cancelled' } });
    const gone = await t.app.request(`/c/${token}`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('This link was canceled');
    expect((await page(t, token, 'options')).status).toBe(410);
    const verify = await t.call('POST', '/passkeys/actions/verify', {
      as: 'supervisor@acme.test',
      body: { input: { customerRef: 'CUST-2010', phoneNumber: phone } },
    });
    expect(verify.status).toBe(409);
    const missing = await t.call('POST', '/passkeys/actions/enroll', {
      as: 'supervisor@acme.test',
      body: { input: { phoneNumber: phone } },
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { fields: Json }).fields).toHaveProperty(['input.customerRef']);
  });
  it('the dashboard names each figure once: a tile and its chart line are one number, and the rate is of those lines', async () => {
    type Dash = {
      tiles: { key: string; label: string; value: number | null }[];
      series: { label: string; points: { value: number }[] }[];
    };
    const dashboard = async () =>
      (await (await t.call('GET', '/passkeys/dashboard?days=7', { as: 'owner@globex.test' })).json()) as Dash;
    const device = new SoftAuthenticator();
    await enroll(globexKey, 'owner@globex.test', 'CUST-2090', device);
    const ok = await verification(globexKey, 'owner@globex.test', 'CUST-2090');
    await page(t, ok.token, 'verify', device.authenticate(await options(t, ok.token), ORIGIN));
    const bad = await verification(globexKey, 'owner@globex.test', 'CUST-2090');
    await page(t, bad.token, 'verify', device.authenticate(await options(t, bad.token), 'https://evil.test'));

    const dash = await dashboard();
    const line = (label: string) => dash.series.find((s) => s.label === label)!.points.reduce((n, p) => n + p.value, 0);
    const tile = (label: string) => dash.tiles.find((x) => x.label === label)!.value!;
    expect(dash.series.map((s) => s.label).sort()).toEqual(['Not verified', 'Registrations', 'Verified']);
    expect(dash.tiles.map((x) => x.label).slice(0, 3)).toEqual(['Registrations', 'Verified', 'Verified rate']);
    expect(tile('Registrations')).toBe(line('Registrations'));
    expect(tile('Verified')).toBe(line('Verified'));
    expect(line('Verified')).toBeGreaterThanOrEqual(1);
    expect(line('Not verified')).toBeGreaterThanOrEqual(1);
    expect(tile('Verified rate')).toBe(Math.round((line('Verified') / (line('Verified') + line('Not verified'))) * 1000) / 10);
  });
});
