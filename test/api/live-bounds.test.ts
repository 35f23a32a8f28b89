import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { getRequestListener } from '@hono/node-server';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { LiveChange } from '../../api/contract/live';
import { LIVE_REPLAY_LIMIT, LiveHub, parseResume, type Sink } from '../../api/live/hub';
import { startListener, type Listener } from '../../api/live/listener';
import { notify } from '../../api/notifications/notify';
import { LiveConnection } from '../../src/api/live';
import { directDatabaseUrl, openLiveStream } from '../support/live-stream';

// What no client of GET /api/live can turn against the server (docs/live-updates.md#bounds):
// the answer goes at once, a catch-up is paged at the client's pace and bounded, a client that
// leaves is gone at once, streams are capped, and a stream carries only what its role may read.

/** Changes written straight to the table, as the triggers write them (no notification: only a catch-up reads them). */
async function addChanges(t: TestContext, n: number, kind: 'task' | 'tasks' = 'tasks'): Promise<void> {
  const accountId = t.account('acme').id;
  // made a minute ago, like a window's rows (a feed takes rows younger than 30 s as still settling
  // and reads them all when it starts: docs/live-updates.md#bounds)
  await sql`insert into live_events (account_id, kind, app, ref, created_at)
    select ${accountId}::uuid, ${kind}, 'one-time-passcode', ${kind === 'task' ? sql`gen_random_uuid()` : sql`null`}::uuid, now() - interval '1 minute' from generate_series(1, ${n})`.execute(
    t.db.kysely,
  );
}

/** Where a tab that has had every change so far stands (the newest id as its floor). */
async function resumePoint(t: TestContext, _token: string): Promise<string> {
  const max = await sql<{
    id: string | null;
  }>`select max(id)::text as id from live_events where account_id = ${t.account('acme').id}`.execute(t.db.kysely);
  return max.rows[0]!.id ?? '0';
}

async function within(ms: number, check: () => boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(DATABASE_KINDS)('the live stream under hostile and unlucky use (%s)', (kind) => {
  const t = useTestContext(kind);
  let hub: LiveHub;
  let listener: Listener;
  let owner: string;
  /** a hub of the test's own for one test, then the listening one again */
  const withHub = async (other: LiveHub, run: () => Promise<void>) => {
    t.deps.live = other;
    try {
      await run();
    } finally {
      other.stop();
      t.deps.live = hub;
    }
  };
  beforeAll(async () => {
    hub = new LiveHub(t.db, { heartbeatMs: 60_000 });
    t.deps.live = hub;
    listener = await startListener(t.db, hub, { url: kind === 'postgres' ? await directDatabaseUrl(t) : undefined });
    owner = await t.tokenFor('owner@acme.test');
  });
  afterAll(async () => {
    hub.stop();
    await listener.stop();
  });

  it('every replayed change carries the resume point just after it: a tab cut after the first gets the rest', async () => {
    const from = await resumePoint(t, owner);
    await addChanges(t, 3, 'task');
    const first = await openLiveStream(t, owner, from);
    await first.waitFor((m) => m.event === 'change' && first.changes().length === 3);
    const [a, b, c] = first.changes();
    await first.close();
    expect(new Set([a!.resumeId, b!.resumeId, c!.resumeId]).size).toBe(3);
    const again = await openLiveStream(t, owner, a!.resumeId!);
    await again.waitFor(() => again.changes().some((x) => x.id === c!.id));
    expect(again.changes().map((x) => x.id)).toEqual([b!.id, c!.id]);
    await again.close();
  });

  it('the early ready carries the tab’s own resume point, before the catch-up', async () => {
    const from = await resumePoint(t, owner);
    await addChanges(t, 5);
    const stream = await openLiveStream(t, owner, from);
    await stream.waitFor(() => stream.changes().length === 5);
    const events = stream.messages.filter((m) => ['ready', 'change', 'reset'].includes(m.event));
    expect(events[0]).toMatchObject({ event: 'ready', id: from });
    await stream.close();
  });

  it(`more than ${LIVE_REPLAY_LIMIT} changes to catch up on tells the tab to reload, and replays none of them`, async () => {
    const from = await resumePoint(t, owner);
    await addChanges(t, LIVE_REPLAY_LIMIT + 1);
    const stream = await openLiveStream(t, owner, from);
    const reset = await stream.waitFor((m) => m.event === 'reset');
    // and where to resume from now
    expect(parseResume(reset.id)).not.toBeNull();
    expect(stream.changes()).toEqual([]);
    await stream.close();
  });

  it('a malformed Last-Event-ID tells the tab to reload', async () => {
    const stream = await openLiveStream(t, owner, 'not-an-id');
    await stream.waitFor((m) => m.event === 'reset');
    await stream.waitFor((m) => m.event === 'ready');
    await stream.close();
  });

  it('a catch-up waits for the client: never more than one page is handed over before the client has taken it', async () => {
    const paged = new LiveHub(t.db, { batch: 50 });
    const from = parseResume(await resumePoint(t, owner));
    await addChanges(t, 600);
    const got: string[] = [];
    let take: () => void = () => {};
    const sink: Sink = {
      change: (change) => got.push(String(change.id)),
      reset: () => got.push('reset'),
      end: () => {},
      // a client that reads nothing until told to
      drained: () => new Promise<void>((resolve) => (take = resolve)),
    };
    const opened = paged.open(
      paged.admit({ accountId: t.account('acme').id, sessionId: null, agent: null, role: 'owner' }),
      sink,
      from,
    );
    // the first page comes (however loaded the machine), and then nothing more while the client reads nothing
    expect(await within(10_000, () => got.length >= 50)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(got.length).toBe(50);
    // it reads on as the client does
    for (let page = 0; page < 12 && got.length < 600; page++) {
      take();
      await within(2_000, () => got.length >= Math.min(600, 50 * (page + 2)));
    }
    take();
    await opened.started;
    expect(got.length).toBe(600);
    expect(got).not.toContain('reset');
    opened.close();
    paged.stop();
  });

  it('a client that leaves mid-catch-up is gone from its feed within a second, over a real connection', async () => {
    const paged = new LiveHub(t.db, { batch: 100, replayLimit: 100_000 });
    await withHub(paged, async () => {
      const from = await resumePoint(t, owner);
      await addChanges(t, 30_000);
      const server = http.createServer(getRequestListener(t.app.fetch));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const port = (server.address() as AddressInfo).port;
        const request = http.get({
          host: '127.0.0.1',
          port,
          path: '/api/live',
          headers: { authorization: `Bearer ${owner}`, 'last-event-id': from },
        });
        // it leaves once the catch-up has begun (or a moment after asking, whichever is first)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 150);
          request.on('response', (res) => {
            res.on('data', (chunk: Buffer) => {
              if (chunk.toString().includes('event: change')) {
                clearTimeout(timer);
                resolve();
              }
            });
          });
          request.on('error', () => {});
        });
        expect(paged.streamCount()).toBe(1);
        request.destroy();
        expect(await within(1_000, () => paged.streamCount() === 0 && paged.feedCount() === 0)).toBe(true);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  it('a session past its cap of open streams is answered 429 TOO_MANY_STREAMS with Retry-After; closing one frees a place', async () => {
    await withHub(new LiveHub(t.db, { perSession: 2 }), async () => {
      const token = await t.tokenFor('owner@acme.test');
      const open = [await openLiveStream(t, token), await openLiveStream(t, token)];
      const refused = await t.call('GET', '/live', { token });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_STREAMS' });
      // another session of the account is not refused for it
      const other = await openLiveStream(t, await t.tokenFor('admin@acme.test'));
      await open[0]!.close();
      await within(1_000, () => t.deps.live!.streamCount() === 2);
      const third = await openLiveStream(t, token);
      await Promise.all([open[1]!.close(), other.close(), third.close()]);
    });
  });

  it('an account past its cap of open streams on a process is answered 429; another account is not', async () => {
    await withHub(new LiveHub(t.db, { perAccount: 2 }), async () => {
      const open = [
        await openLiveStream(t, await t.tokenFor('owner@acme.test')),
        await openLiveStream(t, await t.tokenFor('admin@acme.test')),
      ];
      const refused = await t.call('GET', '/live', { as: 'supervisor@acme.test' });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_STREAMS' });
      const globex = await openLiveStream(t, await t.tokenFor('owner@globex.test'));
      await Promise.all([...open, globex].map((s) => s.close()));
    });
  });

  it("the console's client waits the Retry-After of a refused stream before it asks again", async () => {
    await withHub(new LiveHub(t.db, { perSession: 1 }), async () => {
      const token = await t.tokenFor('owner@acme.test');
      const held = await openLiveStream(t, token);
      let asks = 0;
      const connection = new LiveConnection(token, {
        retryMs: 50,
        maxRetryMs: 100,
        fetch: (async (url: string, init?: RequestInit) => {
          asks++;
          return t.app.request(url, init);
        }) as typeof fetch,
      });
      const release = connection.retain();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // without it, a 50-100 ms back-off asks ten times or more in that time
      expect(asks).toBe(1);
      release();
      connection.stop();
      await held.close();
    });
  });

  it("a supervisor's stream carries no notification (GET /notifications is for admins), an admin's does", async () => {
    const supervisor = await openLiveStream(t, await t.tokenFor('supervisor@acme.test'));
    const admin = await openLiveStream(t, await t.tokenFor('admin@acme.test'));
    await supervisor.waitFor((m) => m.event === 'ready');
    await admin.waitFor((m) => m.event === 'ready');
    expect((await t.call('GET', '/notifications', { as: 'supervisor@acme.test' })).status).toBe(403);
    const accountId = t.account('acme').id;
    await t.db.tenant(accountId, (trx) => notify(trx, accountId, { kind: 'test.live', title: 'For admins' }));
    await admin.waitFor((m) => m.event === 'change' && (JSON.parse(m.data) as LiveChange).kind === 'notification');
    // a later change reaches the supervisor, so the notification had its chance to come first
    await t.db.tenant(accountId, (trx) =>
      sql`insert into dev_sms_outbox (account_id, to_number, body, created_at) values (${accountId}, '+12025550100', 'x', now())`.execute(
        trx,
      ),
    );
    await supervisor.waitFor((m) => m.event === 'change' && (JSON.parse(m.data) as LiveChange).kind === 'outbox');
    expect(supervisor.changes().some((c) => c.kind === 'notification')).toBe(false);
    await Promise.all([supervisor.close(), admin.close()]);
  });

  it('the stream takes its token from the Authorization header only, never from the address', async () => {
    const res = await t.app.request(`/api/live?token=${encodeURIComponent(owner)}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'TOKEN_IN_URL' });
    const both = await t.call('GET', `/live?token=${encodeURIComponent(owner)}`, { token: owner });
    expect(both.status).toBe(401);
  });
});
