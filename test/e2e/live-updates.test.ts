import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cli, freePort, launchBrowser, pickChoice, settle, startProcess, type RunningServer } from './harness';
import { SEEDED_DATABASE, startSeededCluster, type SeededCluster } from './seeded-cluster';
import { makePdf } from '../support/pdfs';
import { NAME, SIGNATURE } from '../support/signature-flow';

// Live updates across processes, in Chromium: two server processes on one PostgreSQL database
// behind a small front (the test's own proxy, standing in for a load balancer) that sends the
// browser to B while B is up and to A otherwise. The customer signs a document on A in their own
// browser; the agent's panel and the dashboard, whose stream is on B, show it without a reload
// and without any periodic request. When the front refuses the stream, the tab falls back to a
// slow poll that still brings the customer's answer, and it streams again once the front lets it.
// Then B is killed with SIGKILL: the tab reconnects through the front to A with its Last-Event-ID
// and gets what committed while it had no stream.

const OWNER = 'owner@acme.test';
const SIGNER = 'Ada Live';
/** the panel's fallback poll (src/pages/apps/_frame/ActionRunner.tsx FALLBACK_POLL_MS) */
const PANEL_FALLBACK_POLL_MS = 5000;

type Front = {
  url: string;
  /** every request the front passed on: path, Last-Event-ID, the server that answered (0: the front refused it), its status, and (for streams) what it carried */
  log: {
    path: string;
    lastEventId: string | null;
    port: number;
    status: number;
    body: string;
    authorization?: string;
    acceptEncoding?: string;
    contentEncoding?: string;
  }[];
  /** everything every stream carried, in the order it passed */
  streamed(): string;
  /** holds new streams until released (so a change certainly commits while the tab has none) */
  holdStreams(hold: boolean): void;
  /** answers new streams 503 itself (a proxy that cannot stream) until told otherwise */
  refuseStreams(refuse: boolean): void;
  /** drops the streams open through it (the tab sees its connection end) */
  cutStreams(): void;
  close(): Promise<void>;
};

async function startFront(ports: () => number[]): Promise<Front> {
  const log: Front['log'] = [];
  let held: (() => void)[] | null = null;
  let refusing = false;
  let streamed = '';
  const open = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const isStream = req.url === '/api/live';
    if (isStream && held) await new Promise<void>((resolve) => held!.push(resolve));
    if (isStream && refusing) {
      log.push({
        path: req.url ?? '',
        lastEventId: (req.headers['last-event-id'] as string | undefined) ?? null,
        port: 0,
        status: 503,
        body: '',
      });
      res.writeHead(503, { 'content-type': 'text/plain' }).end('streaming is not available here');
      return;
    }
    if (isStream) {
      open.add(res);
      res.on('close', () => open.delete(res));
    }
    const targets = ports();
    const attempt = (i: number) => {
      const port = targets[i]!;
      const up = http.request(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } },
        (answer) => {
          const entry = {
            path: req.url ?? '',
            lastEventId: (req.headers['last-event-id'] as string | undefined) ?? null,
            port,
            status: answer.statusCode ?? 0,
            body: '',
            authorization: req.headers.authorization,
            acceptEncoding: req.headers['accept-encoding'] as string | undefined,
            contentEncoding: answer.headers['content-encoding'],
          };
          log.push(entry);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (d: Buffer) => {
            if (isStream) {
              entry.body += d.toString();
              streamed += d.toString();
            }
            res.write(d);
          });
          answer.on('end', () => res.end());
          // the server died mid-answer: so does the browser's connection
          answer.on('aborted', () => res.destroy());
          answer.on('error', () => res.destroy());
        },
      );
      // the browser went away (a reload): so does the request to the server, and it is not tried
      // on the next server (that would log a stream nobody asked for any more)
      let gone = false;
      res.on('close', () => {
        gone = true;
        up.destroy();
      });
      up.on('error', () => (!gone && i + 1 < targets.length && !res.headersSent ? attempt(i + 1) : res.destroy()));
      up.end(body);
    };
    attempt(0);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    streamed: () => streamed,
    holdStreams(hold) {
      if (hold) held ??= [];
      else {
        const waiting = held ?? [];
        held = null;
        for (const release of waiting) release();
      }
    },
    refuseStreams(refuse) {
      refusing = refuse;
    },
    cutStreams() {
      for (const res of open) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('live updates across two server processes (PostgreSQL)', () => {
  let seeded: SeededCluster;
  let db: pg.Client;
  let a: RunningServer;
  let b: RunningServer;
  let bAlive = true;
  let front: Front;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let documentId: string;
  /** every request the agent's tab made (path) */
  const requests: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${a.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
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
  const sendFormFromPanel = async (phone: string) => {
    const send = page.getByRole('form', { name: 'Send a form' });
    await pickChoice(send, 'Form', 'live claim', 'Live claim');
    await send.getByLabel(/Phone number/).fill(phone);
    await send.getByRole('button', { name: 'Send a form' }).click();
    await page.getByTestId('action-status').filter({ hasText: 'sent to' }).waitFor();
  };
  const taskOf = async (table: 'eform_requests' | 'sig_requests', phone: string) =>
    ((await db.query(`select id from ${table} where phone_number = $1`, [phone])).rows[0] as { id: string }).id;
  /** what the streams carried since `from` (a length of front.streamed()) */
  const streamed = (from: number) => front.streamed().slice(from);
  const liveIndicator = (state: string) => page.getByTestId('live-indicator').and(page.locator(`[data-state="${state}"]`));
  const failWith = (what: string) => async (err: unknown) => {
    throw new Error(
      `${err}\n${what}\nfront: ${JSON.stringify(front.log.map((l) => [l.path, l.port, l.status, l.lastEventId]))}\nB: ${bAlive ? b.output().slice(-2000) : '(killed)'}\nA: ${a.output().slice(-2000)}\ntab: ${requests.slice(-40).join(' ')}`,
    );
  };

  beforeAll(async () => {
    // a copy of the run's seeded cluster: the demo accounts are there at once; both processes
    // get its secrets, as one deployment's do (a session made on one is good on the other)
    seeded = await startSeededCluster();
    db = new pg.Client({ connectionString: seeded.cluster.url(SEEDED_DATABASE) });
    await db.connect();
    const envA = await seeded.env();
    token = new URL((await cli(envA, 'link', OWNER)).stdout.trim()).searchParams.get('token')!;
    [a, b] = await Promise.all([startProcess(envA), seeded.env().then(startProcess)]);
    expect((await call('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    // an eForm to send
    const created = await call('POST', '/e-form/forms', {
      definition: {
        title: 'Live claim',
        hiddenFields: [],
        fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }],
      },
    });
    expect(created.status).toBe(201);
    expect((await call('POST', `/e-form/forms/${(created.body as { id: string }).id}/publish`, {})).status).toBe(200);
    // a document to sign: a PDF uploaded, a signature and a name field placed, published
    expect((await call('POST', '/document-signature/billing/free-trial', {})).status).toBe(201);
    const uploaded = await fetch(`${a.url}/api/document-signature/documents?name=Live%20agreement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf', 'x-file-name': 'live-agreement.pdf' },
      body: Buffer.from(await makePdf(1, 'Live agreement')),
    });
    expect(uploaded.status).toBe(201);
    documentId = ((await uploaded.json()) as { id: string }).id;
    expect(
      (
        await call('PUT', `/document-signature/documents/${documentId}/draft`, {
          name: 'Live agreement',
          fields: [SIGNATURE, NAME],
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', `/document-signature/documents/${documentId}/publish`, {})).status).toBe(201);

    const portOf = (s: RunningServer) => Number(new URL(s.url).port);
    front = await startFront(() => (bAlive ? [portOf(b), portOf(a)] : [portOf(a)]));
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`${front.url}/?token=${encodeURIComponent(token)}`);
    await page
      .getByRole('heading', { name: 'One-Time Passcode' })
      .or(page.getByRole('heading', { name: 'Apps' }))
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(failWith(page.url()));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.end();
    await seeded?.cluster.destroy();
  });

  it("the customer signs on one process; the agent's panel and the dashboard on the other show it, with no reload and no periodic request", async () => {
    await page.goto(`${front.url}/document-signature`);
    const send = page.getByRole('form', { name: 'Send for signature' });
    await send.waitFor({ timeout: 15_000 }).catch(failWith(await page.locator('body').innerText()));
    await liveIndicator('live').waitFor();
    const completedTile = page.getByTestId('kpi-completed').locator('.kpi-value');
    const completedBefore = Number(await completedTile.innerText());
    const creditChip = page.getByTestId('credit-info');
    const credits = async () => Number((await creditChip.innerText()).match(/[\d,]+/)![0].replace(/,/g, ''));
    const creditsBefore = await credits();

    const phone = '+15550142003';
    const navigations = requests.filter((p) => p === '/document-signature').length;
    const streamsBefore = front.streamed().length;
    await pickChoice(send, 'Document', 'live agreement', 'Live agreement');
    await send.getByLabel("Signer's full name").fill(SIGNER);
    await send.getByLabel('Phone number').fill(phone);
    await send.getByRole('button', { name: 'Send for signature' }).click();
    await page
      .getByTestId('action-status')
      .filter({ hasText: `sent to ${SIGNER}` })
      .waitFor();
    const taskId = await taskOf('sig_requests', phone);
    // settled: the stream carried what the sending changed (the task, the credit) and the tab has
    // read what those changes touched (the status, the dashboard: it coalesces a burst for 400 ms,
    // so the quiet the tab must keep is longer than that)
    await expect
      .poll(() => streamed(streamsBefore).includes(`"ref":"${taskId}"`) && streamed(streamsBefore).includes('"kind":"credits"'), {
        timeout: 5_000,
      })
      .toBe(true);
    await settle(page, 600);
    // the header's credit count followed the credit the sending used
    await expect.poll(credits, { timeout: 5_000 }).toBeGreaterThan(creditsBefore);

    // Nothing is asked while nothing happens: no polling. Showing that takes a stretch of time in
    // which nothing happens, so this one window is a span, not an event. It is longer than the
    // fastest poll this page has when the stream cannot be opened (the panel's 5 s), so such a
    // poll could not slip past it.
    const idleFrom = requests.length;
    await page.waitForTimeout(PANEL_FALLBACK_POLL_MS + 500);
    expect(requests.slice(idleFrom)).toEqual([]);

    // the customer signs on their phone, served by A
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const customer = await phoneContext.newPage();
    const signFrom = front.streamed().length;
    await customer.goto(`${a.url}${await linkFor(phone)}`);
    await customer.getByRole('heading', { name: 'Sign: Live agreement' }).waitFor({ timeout: 10_000 });
    // the agent sees the document opened before the customer has signed
    await page
      .getByTestId('action-status')
      .filter({ hasText: `${SIGNER} opened the document.` })
      .waitFor({ timeout: 5_000 })
      .catch(failWith('opened'));
    await expect.poll(() => customer.getByLabel(/\d\. Full name/).inputValue()).toBe(SIGNER);
    const canvas = customer.locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    const c = (await canvas.boundingBox())!;
    await customer.mouse.move(c.x + 20, c.y + 60);
    await customer.mouse.down();
    for (const [dx, dy] of [
      [60, 30],
      [100, 80],
      [160, 20],
      [220, 70],
    ] as const)
      await customer.mouse.move(c.x + dx, c.y + dy, { steps: 4 });
    await customer.mouse.up();
    await customer.getByLabel(/I agree that my electronic signature/).check();
    await customer.getByRole('button', { name: 'Sign', exact: true }).click();
    await customer.getByRole('heading', { name: 'Signed. Thank you' }).waitFor({ timeout: 10_000 });
    await phoneContext.close();

    // the panel, whose stream is on B, follows the signature and the seal made on A
    await page
      .getByTestId('action-status')
      .filter({ hasText: `${SIGNER} signed: the sealed document is ready.` })
      .waitFor({ timeout: 10_000 })
      .catch(failWith('completed'));
    // the dashboard's counter moved on its own
    await expect.poll(async () => Number(await completedTile.innerText()), { timeout: 5_000 }).toBe(completedBefore + 1);

    // every request since the idle window answered a change the stream carried: the task's status,
    // the dashboard, the header's credit figure and the bell; no page was reloaded
    const after = requests.slice(idleFrom);
    expect(
      after.filter(
        (p) =>
          !/^\/api\/(document-signature\/(tasks\/[0-9a-f-]{36}\/status|dashboard|billing\/usage)|notifications|live)$/.test(p),
      ),
    ).toEqual([]);
    expect(requests.filter((p) => p === '/document-signature').length).toBe(navigations);
    // no more status reads than changes of the task on the stream (opened, signed, completed)
    const taskChanges = streamed(signFrom).split(`"ref":"${taskId}"`).length - 1;
    expect(taskChanges).toBeGreaterThanOrEqual(3);
    expect(after.filter((p) => p.endsWith(`/tasks/${taskId}/status`)).length).toBeLessThanOrEqual(taskChanges);
    // the streams came from B (the front's first choice), the customer's page from A
    const streams = front.log.filter((l) => l.path === '/api/live');
    expect(streams.every((l) => l.port === Number(new URL(b.url).port))).toBe(true);
    // each with the session in a header (its address is just /api/live), and never compressed
    // though the browser accepts brotli (compression would hold events back)
    for (const l of streams) {
      expect(l.authorization).toBe(`Bearer ${token}`);
      expect(l.acceptEncoding).toMatch(/\bbr\b/);
      expect(l.contentEncoding).toBeUndefined();
    }
  });

  it('a stream the front will not carry: the tab says so, polls slowly meanwhile, and streams again once it can', async () => {
    await page.goto(`${front.url}/e-form`);
    await page.getByRole('form', { name: 'Send a form' }).waitFor({ timeout: 15_000 }).catch(failWith('e-form'));
    await liveIndicator('live').waitFor();
    const phone = '+15550142004';
    await sendFormFromPanel(phone);
    const link = await linkFor(phone);

    // the front stops carrying streams and drops the open one: three failed opens, then "Not live"
    const cutAt = front.log.length;
    front.refuseStreams(true);
    front.cutStreams();
    await liveIndicator('unavailable').waitFor({ timeout: 10_000 }).catch(failWith('unavailable'));
    await page.getByTestId('live-indicator').getByText('Not live').waitFor();
    const refused = front.log.slice(cutAt).filter((l) => l.path === '/api/live');
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(refused.every((l) => l.status === 503)).toBe(true);

    // the customer submits meanwhile; the panel's slow poll brings it
    const pollFrom = requests.length;
    await customerSubmits(link);
    await page
      .getByTestId('action-status')
      .filter({ hasText: 'The customer submitted the form.' })
      .waitFor({ timeout: PANEL_FALLBACK_POLL_MS + 5_000 })
      .catch(failWith('poll'));
    const taskId = await taskOf('eform_requests', phone);
    expect(requests.slice(pollFrom)).toContain(`/api/e-form/tasks/${taskId}/status`);
    // no stream carried it: every open since the cut was refused
    expect(
      front.log
        .slice(cutAt)
        .filter((l) => l.path === '/api/live')
        .every((l) => l.status === 503),
    ).toBe(true);

    // the front carries streams again: the tab goes back to streaming (its retries back off to 10 s)
    front.refuseStreams(false);
    await liveIndicator('live').waitFor({ timeout: 20_000 }).catch(failWith('back to live'));
    const backFrom = front.log.length;
    await page.getByRole('button', { name: 'Start over' }).click();
    const next = '+15550142005';
    await sendFormFromPanel(next);
    const nextLink = await linkFor(next);
    await customerSubmits(nextLink);
    await page
      .getByTestId('action-status')
      .filter({ hasText: 'The customer submitted the form.' })
      .waitFor({ timeout: 5_000 })
      .catch(failWith('streamed again'));
    // this time the change came on the stream (the one open since the front let streams through)
    const nextTask = await taskOf('eform_requests', next);
    const reopened = front.log.filter((l) => l.path === '/api/live' && l.status === 200).at(-1)!;
    expect(front.log.indexOf(reopened)).toBeLessThan(backFrom);
    expect(reopened.body).toContain(`"ref":"${nextTask}"`);
  });

  it('a process killed with SIGKILL: the tab reconnects to the other one and misses nothing', async () => {
    await page.getByRole('button', { name: 'Start over' }).click();
    const phone = '+15550142002';
    await sendFormFromPanel(phone);
    const link = await linkFor(phone);
    const streamsBefore = front.log.filter((l) => l.path === '/api/live').length;

    front.holdStreams(true);
    bAlive = false;
    await b.kill();
    // while the tab has no stream, the customer opens the form and submits it
    await customerSubmits(link);
    front.holdStreams(false);

    await page.getByTestId('action-status').filter({ hasText: 'The customer submitted the form.' }).waitFor({ timeout: 10_000 });
    await liveIndicator('live').waitFor();
    const reconnect = front.log.filter((l) => l.path === '/api/live').slice(streamsBefore);
    expect(
      reconnect.length,
      JSON.stringify(
        front.log.filter((l) => l.path === '/api/live').map((l) => [l.port, l.status, l.lastEventId, l.body.slice(0, 300)]),
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(reconnect[0]!.port).toBe(Number(new URL(a.url).port));
    // it resumed where it was, and the replay carried the changes it had missed
    expect(reconnect[0]!.lastEventId).toMatch(/^\d+(\.\d+)*$/);
    const task = await taskOf('eform_requests', phone);
    expect(reconnect[0]!.body).toContain(`"ref":"${task}"`);
  });
});
