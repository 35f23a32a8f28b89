import http from 'node:http';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cli, freePort, launchBrowser, serverEnv, startProcess, type RunningServer } from './harness';

// Live updates across processes, in Chromium: two server processes on one PostgreSQL database
// behind a small front (the test's own proxy, standing in for a load balancer) that sends the
// browser to B while B is up and to A otherwise. The customer acts on A; the agent's panel, served
// by B, shows it without a reload and without any periodic request. Then B is killed with SIGKILL:
// the tab reconnects through the front to A with its Last-Event-ID and gets what committed while
// it had no stream.

const PG_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const OWNER = 'owner@acme.test';

type Front = {
  url: string;
  /** every request the front passed on: path, Last-Event-ID, the server that answered, and (for streams) what it carried */
  log: { path: string; lastEventId: string | null; port: number; body: string }[];
  /** holds new streams until released (so a change certainly commits while the tab has none) */
  holdStreams(hold: boolean): void;
  close(): Promise<void>;
};

async function startFront(ports: () => number[]): Promise<Front> {
  const log: Front['log'] = [];
  let held: (() => void)[] | null = null;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const isStream = req.url === '/api/live';
    if (isStream && held) await new Promise<void>((resolve) => held!.push(resolve));
    const targets = ports();
    const attempt = (i: number) => {
      const port = targets[i]!;
      const up = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } }, (answer) => {
        const entry = { path: req.url ?? '', lastEventId: (req.headers['last-event-id'] as string | undefined) ?? null, port, body: '' };
        log.push(entry);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (d: Buffer) => {
          if (isStream) entry.body += d.toString();
          res.write(d);
        });
        answer.on('end', () => res.end());
        // the server died mid-answer: so does the browser's connection
        answer.on('aborted', () => res.destroy());
        answer.on('error', () => res.destroy());
      });
      // the browser went away (a reload): so does the request to the server
      res.on('close', () => up.destroy());
      up.on('error', () => (i + 1 < targets.length && !res.headersSent ? attempt(i + 1) : res.destroy()));
      up.end(body);
    };
    attempt(0);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    holdStreams(hold) {
      if (hold) held ??= [];
      else {
        const waiting = held ?? [];
        held = null;
        for (const release of waiting) release();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('live updates across two server processes (PostgreSQL)', () => {
  const dbName = `sb_e2e_live_${crypto.randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let db: pg.Client;
  let a: RunningServer;
  let b: RunningServer;
  let bAlive = true;
  let front: Front;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  const requests: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${a.url}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  };

  /** The link the development outbox holds for a number, as a path on server A. */
  const linkFor = async (phone: string) => {
    const outbox = (await call('GET', '/dev/sms-outbox')).body as { to: string; body: string }[];
    return new URL(outbox.find((m) => m.to === phone)!.body.match(/https?:\/\/\S+/)![0]).pathname;
  };
  /** The customer opens the link and submits the form, on server A. */
  const customerSubmits = async (link: string) => {
    expect((await fetch(`${a.url}${link}`)).status).toBe(200);
    const form = new FormData();
    form.append('name', 'Ada Live');
    const res = await fetch(`${a.url}${link}`, { method: 'POST', body: form });
    expect(await res.text()).toContain('Thank you');
  };
  const sendFromPanel = async (phone: string) => {
    const send = page.getByRole('form', { name: 'Send a form' });
    await send.getByLabel(/Form/).fill('Live claim');
    await send.getByLabel(/Phone number/).fill(phone);
    await send.getByRole('button', { name: 'Send a form' }).click();
    await page.getByTestId('action-status').filter({ hasText: 'sent to' }).waitFor();
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    // one deployment: both processes share the secrets (a session made on one is good on the other)
    const base = { DATABASE_URL: url.toString(), AUTO_SEED: 'false', SESSION_SECRET: crypto.randomBytes(32).toString('hex'), ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') };
    db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const envA = await serverEnv(base);
    expect((await cli(envA, 'seed')).code).toBe(0);
    token = new URL((await cli(envA, 'link', OWNER)).stdout.trim()).searchParams.get('token')!;
    [a, b] = await Promise.all([startProcess(envA), serverEnv(base).then(startProcess)]);
    expect((await call('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    const created = await call('POST', '/e-form/forms', { definition: { title: 'Live claim', hiddenFields: [], fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }] } });
    expect(created.status).toBe(201);
    expect((await call('POST', `/e-form/forms/${(created.body as { id: string }).id}/publish`, {})).status).toBe(200);
    const portOf = (s: RunningServer) => Number(new URL(s.url).port);
    front = await startFront(() => (bAlive ? [portOf(b), portOf(a)] : [portOf(a)]));
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`${front.url}/?token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).or(page.getByRole('heading', { name: 'Apps' })).first().waitFor({ timeout: 10_000 }).catch(async (err) => {
      throw new Error(`${err}\n${page.url()}\n${await page.locator('body').innerText()}\n${JSON.stringify(front.log.map((l) => [l.path, l.port]))}\n${requests.join(' ')}`);
    });
    await page.goto(`${front.url}/e-form`);
    await page.getByRole('form', { name: 'Send a form' }).waitFor({ timeout: 15_000 }).catch(async (err) => {
      throw new Error(`${err}\n${page.url()}\n${await page.locator('body').innerText()}`);
    });
    await page.getByTestId('live-indicator').and(page.locator('[data-state="live"]')).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.end();
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
      await admin.end();
    }
  });

  it("the customer's submit on one process shows in the agent's panel on the other, with no reload and no periodic request", async () => {
    const phone = '+15550142001';
    await sendFromPanel(phone);
    const link = await linkFor(phone);
    // what the sending itself set off (the status and the dashboard, re-read once each) settles first
    await page.waitForTimeout(1000);
    // nothing is asked while nothing happens: no polling
    const idleFrom = requests.length;
    await page.waitForTimeout(2500);
    expect(requests.slice(idleFrom)).toEqual([]);
    const navigations = requests.filter((p) => p === '/e-form').length;

    await customerSubmits(link);
    await page.getByTestId('action-status').filter({ hasText: 'The customer submitted the form.' }).waitFor({ timeout: 5_000 }).catch(async (err) => {
      throw new Error(`${err}\n${JSON.stringify(front.log.filter((l) => l.path === '/api/live'))}\nB: ${b.output().slice(-3000)}\nA: ${a.output().slice(-2000)}\n${requests.slice(idleFrom).join(' ')}`);
    });
    // the panel read the task's status because the stream said it changed, not on a timer
    const after = requests.slice(idleFrom);
    expect(after.every((p) => /^\/api\/(e-form\/(tasks\/[0-9a-f-]{36}\/status|dashboard)|live)$/.test(p))).toBe(true);
    expect(requests.filter((p) => p === '/e-form').length).toBe(navigations);
    // the stream came from B (the front's first choice), the customer's page from A
    expect(front.log.filter((l) => l.path === '/api/live').every((l) => l.port === Number(new URL(b.url).port))).toBe(true);
  });

  it('a process killed with SIGKILL: the tab reconnects to the other one and misses nothing', async () => {
    await page.getByRole('button', { name: 'Start over' }).click();
    const phone = '+15550142002';
    await sendFromPanel(phone);
    const link = await linkFor(phone);
    const streamsBefore = front.log.filter((l) => l.path === '/api/live').length;

    front.holdStreams(true);
    bAlive = false;
    await b.kill();
    // while the tab has no stream, the customer opens the form and submits it
    await customerSubmits(link);
    front.holdStreams(false);

    await page.getByTestId('action-status').filter({ hasText: 'The customer submitted the form.' }).waitFor({ timeout: 10_000 });
    await page.getByTestId('live-indicator').and(page.locator('[data-state="live"]')).waitFor();
    const reconnect = front.log.filter((l) => l.path === '/api/live').slice(streamsBefore);
    expect(reconnect.length).toBeGreaterThanOrEqual(1);
    expect(reconnect[0]!.port).toBe(Number(new URL(a.url).port));
    // it resumed where it was, and the replay carried the changes it had missed
    expect(reconnect[0]!.lastEventId).toMatch(/^\d+(\.\d+)*$/);
    const task = (await db.query(`select id from eform_requests where phone_number = $1`, [phone])).rows[0] as { id: string };
    expect(reconnect[0]!.body).toContain(`"ref":"${task.id}"`);
  });
});
