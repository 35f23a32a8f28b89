import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { ActionResult } from '../../api/contract/platform';
import type { LiveChange } from '../../api/contract/live';
import { LiveHub } from '../../api/live/hub';
import { LISTENER_NAME, startListener, type Listener } from '../../api/live/listener';
import { pruneLiveEvents } from '../../api/live/jobs';
import { notify } from '../../api/notifications/notify';
import type { SseMessage } from '../../src/api/sse';
import { directDatabaseUrl, openLiveStream, type LiveStream } from '../support/live-stream';

const OTP = '/one-time-passcode';

/** The live stream as a tab opens it: an event stream, read from its `ready` on. */
async function openStream(t: TestContext, token: string, lastEventId?: string): Promise<LiveStream> {
  const stream = await openLiveStream(t, token, lastEventId || undefined);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  await stream.waitFor((m) => m.event === 'ready');
  return stream;
}

const isChange = (match: (c: LiveChange) => boolean) => (m: SseMessage) =>
  m.event === 'change' && match(JSON.parse(m.data) as LiveChange);

let phones = 0;
async function sendPasscode(t: TestContext, as: { as?: string; token?: string }): Promise<string> {
  const res = await t.call('POST', `${OTP}/actions/send`, {
    ...as,
    body: { input: { phoneNumber: `+1202555${String(2000 + phones++)}` } },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as ActionResult).taskId;
}

const agentToken = (t: TestContext, email: string) =>
  t.deps.tokens.sign({ sub: `agent:${email}`, acc: t.account('acme').id, role: 'agent', root: false, ghost: false, email }, 3600);

describe.each(BOTH_DATABASE_KINDS)('live updates (%s)', (kind) => {
  const t = useTestContext(kind);
  let listener: Listener;
  let listening = 0;
  beforeAll(async () => {
    t.deps.live = new LiveHub(t.db, { heartbeatMs: 150 });
    listener = await startListener(t.db, t.deps.live, {
      url: kind === 'postgres' ? await directDatabaseUrl(t) : undefined,
      retryMs: 1_500,
      onListening: () => listening++,
    });
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
  });
  afterAll(async () => {
    t.deps.live?.stop();
    await listener.stop();
  });

  it("a task the account's agent starts reaches the account's stream at once, as ids only", async () => {
    const stream = await openStream(t, await t.tokenFor('owner@acme.test'));
    const taskId = await sendPasscode(t, { as: 'admin@acme.test' });
    const change = await stream.waitFor(isChange((c) => c.kind === 'task' && c.ref === taskId));
    expect(Object.keys(JSON.parse(change.data)).sort()).toEqual(['app', 'id', 'kind', 'ref']);
    expect(JSON.parse(change.data)).toMatchObject({ kind: 'task', app: 'one-time-passcode', ref: taskId });
    // the same transaction charged a credit and wrote the development outbox
    await stream.waitFor(isChange((c) => c.kind === 'credits' && c.app === 'one-time-passcode'));
    await stream.waitFor(isChange((c) => c.kind === 'outbox'));
    await stream.close();
  });

  it('an idle stream gets heartbeat comments so proxies keep it open', async () => {
    const stream = await openStream(t, await t.tokenFor('owner@acme.test'));
    const from = stream.messages.length;
    await stream.waitFor((m) => m.event === 'comment', from);
    await stream.close();
  });

  it("another account's stream sees nothing of it", async () => {
    const globex = await openStream(t, await t.tokenFor('owner@globex.test'));
    const taskId = await sendPasscode(t, { as: 'admin@acme.test' });
    const acme = await openStream(t, await t.tokenFor('owner@acme.test'));
    await t.db.tenant(t.account('globex').id, (trx) =>
      notify(trx, t.account('globex').id, { kind: 'test.live', title: 'Globex only' }),
    );
    await sendPasscode(t, { as: 'admin@acme.test' });
    await acme.waitFor(isChange((c) => c.kind === 'task'));
    const own = await globex.waitFor(isChange((c) => c.kind === 'notification'));
    expect(globex.changes()).toEqual([{ ...(JSON.parse(own.data) as LiveChange), resumeId: own.id }]);
    expect(globex.messages.some((m) => m.data.includes(taskId))).toBe(false);
    await globex.close();
    await acme.close();
  });

  it('an agent (host user) stream gets only its own tasks', async () => {
    const mine = await openStream(t, await agentToken(t, 'agent@acme.test'));
    const others = await sendPasscode(t, { token: await agentToken(t, 'other.agent@acme.test') });
    const admins = await sendPasscode(t, { as: 'admin@acme.test' });
    const own = await sendPasscode(t, { token: await agentToken(t, 'agent@acme.test') });
    await mine.waitFor(isChange((c) => c.ref === own));
    const seen = mine.changes();
    expect(seen.every((c) => c.kind === 'task' && c.ref === own)).toBe(true);
    expect(seen.some((c) => c.ref === others || c.ref === admins)).toBe(false);
    await mine.close();
  });

  it('signing out ends the stream of that session, with the reason', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const stream = await openStream(t, token);
    const kept = await openStream(t, await t.tokenFor('owner@acme.test'));
    expect((await t.call('POST', '/sign-out', { token })).status).toBe(204);
    const end = await stream.waitFor((m) => m.event === 'end');
    expect(JSON.parse(end.data)).toEqual({ code: 'SESSION_REVOKED' });
    await stream.closed;
    // another session of the same admin goes on
    const taskId = await sendPasscode(t, { as: 'admin@acme.test' });
    await kept.waitFor(isChange((c) => c.ref === taskId));
    await kept.close();
    // and the ended session cannot open a new one
    const again = await t.call('GET', '/live', { token });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ code: 'SESSION_REVOKED' });
  });

  it("a role change ends the admin's streams", async () => {
    const stream = await openStream(t, await t.tokenFor('supervisor@acme.test'));
    const id = t.account('acme').adminIds['supervisor@acme.test'];
    expect((await t.call('PUT', `/admins/${id}/role`, { as: 'owner@acme.test', body: { role: 'admin' } })).status).toBe(200);
    expect(JSON.parse((await stream.waitFor((m) => m.event === 'end')).data)).toEqual({ code: 'SESSION_REVOKED' });
    await stream.closed;
    expect((await t.call('PUT', `/admins/${id}/role`, { as: 'owner@acme.test', body: { role: 'supervisor' } })).status).toBe(200);
  });

  it("ending ghost mode ends the ghost session's stream; the staff member's own token opens one of the provider's account", async () => {
    const started = await t.call('POST', '/watch-tower/ghost-mode', {
      as: 'staff@provider.test',
      body: { accountId: t.account('acme').id },
    });
    expect(started.status).toBe(200);
    const ghost = ((await started.json()) as { token: string }).token;
    const stream = await openStream(t, ghost);
    // while it lasts, the ghost sees the account's changes like its admin
    const taskId = await sendPasscode(t, { as: 'admin@acme.test' });
    await stream.waitFor(isChange((c) => c.ref === taskId));
    const ended = await t.call('DELETE', '/ghost-mode', { token: ghost });
    expect(ended.status).toBe(200);
    expect(JSON.parse((await stream.waitFor((m) => m.event === 'end')).data)).toEqual({ code: 'SESSION_REVOKED' });
    await stream.closed;
    const again = await t.call('GET', '/live', { token: ghost });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    const own = await openStream(t, ((await ended.json()) as { token: string }).token);
    await own.close();
  });

  it.runIf(kind === 'postgres')(
    'idle streams hold no database connection: more streams than the pool has connections, and requests still answer',
    async () => {
      // the test's pool has 5 connections (test/api/helpers.ts): a stream holding one would exhaust it
      const token = await t.tokenFor('owner@acme.test');
      const streams = await Promise.all(Array.from({ length: 12 }, () => openStream(t, token)));
      const busy = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state in ('active', 'idle in transaction') and pid <> pg_backend_pid()`.execute(
        t.db.kysely,
      );
      expect(busy.rows[0]!.n).toBe(0);
      const started = Date.now();
      const taskId = await sendPasscode(t, { as: 'admin@acme.test' });
      expect(Date.now() - started).toBeLessThan(5_000);
      // and every one of them still gets the change
      await Promise.all(streams.map((s) => s.waitFor(isChange((c) => c.ref === taskId))));
      await Promise.all(streams.map((s) => s.close()));
    },
  );

  it('a tab reconnecting with Last-Event-ID gets the changes it missed, in order, and nothing it had', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const first = await openStream(t, token);
    const before = await sendPasscode(t, { as: 'admin@acme.test' });
    await first.waitFor(isChange((c) => c.kind === 'outbox'));
    await first.waitFor(isChange((c) => c.ref === before));
    const had = first.changes();
    const resumeId = had[had.length - 1]!.resumeId!;
    await first.close();

    const missed = [
      await sendPasscode(t, { as: 'admin@acme.test' }),
      await sendPasscode(t, { as: 'admin@acme.test' }),
      await sendPasscode(t, { as: 'admin@acme.test' }),
    ];
    const second = await openStream(t, token, resumeId);
    // `ready` comes at once; the catch-up follows it
    await second.waitFor(isChange((c) => c.kind === 'task' && c.ref === missed[2]));
    const replayed = second.changes();
    // (a later step of the first task, committed after the tab left, is missed too and comes first)
    expect(
      replayed
        .filter((c) => c.kind === 'task' && c.ref !== before)
        .map((c) => c.ref)
        .filter((ref, i, all) => all.indexOf(ref) === i),
    ).toEqual(missed);
    const ids = replayed.map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.some((id) => had.some((h) => h.id === id))).toBe(false);
    await second.close();
  });

  it('a tab that has had no change yet resumes from where it connected', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const first = await openStream(t, token);
    const ready = first.messages.find((m) => m.event === 'ready')!;
    expect(ready.id).toMatch(/^\d+(\.\d+)*$/);
    await first.close();
    const missed = await sendPasscode(t, { as: 'admin@acme.test' });
    const second = await openStream(t, token, ready.id!);
    await second.waitFor(isChange((c) => c.kind === 'task' && c.ref === missed));
    await second.close();
  });

  it.runIf(kind === 'postgres')('a cut listening connection comes back and catches up on what committed meanwhile', async () => {
    const stream = await openStream(t, await t.tokenFor('owner@acme.test'));
    const before = listening;
    const cut = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where application_name = ${LISTENER_NAME} and datname = current_database()`.execute(t.db.kysely);
    expect(cut.rows[0]!.n).toBe(1);
    const taskId = await sendPasscode(t, { as: 'admin@acme.test' });
    // committed while nobody listened (the listener waits 1.5 s before reopening)
    expect(listening).toBe(before);
    await stream.waitFor(isChange((c) => c.ref === taskId));
    expect(listening).toBe(before + 1);
    await stream.close();
  });

  it('a resume point older than the replay window tells the tab to reload', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const first = await openStream(t, token);
    await sendPasscode(t, { as: 'admin@acme.test' });
    const change = await first.waitFor(isChange(() => true));
    await first.close();
    await pruneLiveEvents(t.deps, new Date(Date.now() + 11 * 60_000));
    // resuming from that change: it is gone from the table now
    const second = await openStream(t, token, String((JSON.parse(change.data) as LiveChange).id));
    await second.waitFor((m) => m.event === 'reset');
    await second.close();
  });
});
