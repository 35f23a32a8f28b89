import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, WCAG_22_AA } from './axe';
import { launchBrowser, pickChoice, settle, startServer } from './harness';
import { encryptZoomContext, startZoomPeer, zoomBridgeScript, zoomServerEnv, type ZoomPeer } from '../fixtures/host-peers';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { addStripeConnect, connectServerEnv, type ConnectPeer } from '../support/stripe-connect-peer';
import { makePdf } from '../support/pdfs';
import { NAME, SIGNATURE } from '../support/signature-flow';
import { translate } from '../../api/customer-pages/i18n/index';
import type { Journey } from '../../api/contract/journeys';
import type { Locale } from '../../api/contract/locales';
import { formatMinor } from '../../api/contract/money';

// A four-step journey as a caller lives it on the built server, in Chromium at 360 px: one SMS,
// one link; the code from the SMS, a form, a signature, a payment on the (loopback) Stripe
// Checkout page; axe on every step; in English and in Arabic (right to left). Then the agent's
// own action in the Zoom panel (the real SDK on an injected Zoom bridge) picks the journey.

const ZOOM_APP_ID = 'e2e-zoom-journeys';
const ZOOM_SECRET = 'e2e-zoom-journeys-client-secret';
const ADMIN = 'owner@acme.test';

describe('Journeys in Chromium', () => {
  let zoom: ZoomPeer;
  let peer: StripePeer;
  let connect: ConnectPeer;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let webhookUrl = '';
  let templateId = '';

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const token = new URL(server.links[ADMIN]!).searchParams.get('token')!;
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  };

  beforeAll(async () => {
    zoom = await startZoomPeer([
      { id: 'z-journey-agent', email: 'maya.agent@acme.test', first_name: 'Maya', last_name: 'Agent' },
    ]);
    peer = await startStripePeer({ webhookSecret: 'whsec_billing_unused' });
    connect = addStripeConnect(peer, {
      clientId: 'ca_e2e_journeys',
      webhookSecret: 'whsec_connect_journeys',
      deliver: async (payload, signature) =>
        (
          await fetch(webhookUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: payload,
          })
        ).status,
    });
    server = await startServer({
      linkFor: [ADMIN],
      env: {
        ...zoomServerEnv(zoom, ZOOM_APP_ID, ZOOM_SECRET),
        ...connectServerEnv(peer, 'ca_e2e_journeys', 'whsec_connect_journeys'),
      },
    });
    webhookUrl = `${server.url}/api/payments/stripe/webhook`;

    expect((await call('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    // Acme uses One-Time Passcode and eForm already; Document Signature and Payments start their trials
    for (const app of ['document-signature', 'payments'])
      expect((await call('POST', `/${app}/billing/free-trial`, {})).status).toBe(201);
    // a published form and document, Stripe connected (through its loopback authorize step)
    const form = await call('POST', '/e-form/forms', {
      definition: {
        title: 'Your address',
        hiddenFields: [],
        fields: [{ id: 'street', type: 'short_text', label: 'Street', required: true }],
      },
    });
    expect((await call('POST', `/e-form/forms/${form.body.id as string}/publish`, {})).status).toBe(200);
    const token = new URL(server.links[ADMIN]!).searchParams.get('token')!;
    const uploaded = await fetch(`${server.url}/api/document-signature/documents?name=Service%20terms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf', 'x-file-name': 'terms.pdf' },
      body: Buffer.from(await makePdf(1, 'Service terms')),
    });
    expect(uploaded.status).toBe(201);
    const documentId = ((await uploaded.json()) as { id: string }).id;
    expect(
      (
        await call('PUT', `/document-signature/documents/${documentId}/draft`, {
          name: 'Service terms',
          fields: [SIGNATURE, NAME],
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', `/document-signature/documents/${documentId}/publish`, {})).status).toBe(201);
    const started = await call('POST', '/payments/stripe/connect');
    const state = new URL(started.body.url as string).searchParams.get('state')!;
    const callback = await fetch(`${server.url}/api/payments/stripe/callback`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        cookie: (started.headers.get('set-cookie') ?? '').split(';')[0]!,
      },
      body: JSON.stringify({ state, code: connect.authorize(state) }),
    });
    expect(callback.status).toBe(200);
    const template = await call('POST', '/journeys/templates', {
      name: 'Move-in',
      steps: [
        { app: 'one-time-passcode' },
        { app: 'e-form', formId: form.body.id },
        { app: 'document-signature', documentId },
        { app: 'payments', amount: 2500, currency: 'usd', description: 'Deposit' },
      ],
    });
    expect(template.status).toBe(201);
    templateId = template.body.id as string;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await zoom?.close();
    await peer?.close();
  });

  const outbox = async (to: string) =>
    ((await call('GET', '/dev/sms-outbox')).body as unknown as { to: string; body: string }[]).filter((m) => m.to === to);

  async function accessible(page: Page) {
    await settle(page);
    const violations = await axeViolations(page, { tags: WCAG_22_AA });
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }

  for (const locale of ['en', 'ar'] as Locale[]) {
    it(`the caller walks the four steps behind one link (${locale}), each step its app's own page`, async () => {
      const t = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) =>
        translate(locale, key, values);
      const phone = locale === 'en' ? '+15550109901' : '+15550109902';
      const sent = await call('POST', '/journeys', { templateId, phoneNumber: phone, customerName: 'Rosa Parks', locale });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const journey = sent.body as unknown as Journey;
      const messages = await outbox(phone);
      expect(messages).toHaveLength(1);
      const sms = messages[0]!.body;
      const code = sms.match(/\b(\d{6})\b/)![1]!;

      const page = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
      await page.goto(sms.match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0]);
      expect(await page.getAttribute('html', 'dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      await page.getByText(t('journey.step', { n: 1, total: 4 })).waitFor();
      await page.getByRole('heading', { name: t('journey.code.title') }).waitFor();
      await accessible(page);
      await page.getByLabel(t('journey.code.label')).fill(code);
      await page.getByRole('button', { name: t('journey.code.button') }).click();

      await page.getByText(t('journey.step', { n: 2, total: 4 })).waitFor();
      await page.getByRole('heading', { name: 'Your address' }).waitFor();
      await accessible(page);
      await page.getByLabel(/Street/).fill('1 Main St');
      await page.getByRole('button', { name: t('eform.submit') }).click();

      await page.getByText(t('journey.step', { n: 3, total: 4 })).waitFor();
      await page.getByRole('heading', { name: t('sig.title', { document: 'Service terms' }) }).waitFor();
      await accessible(page);
      const canvas = page.locator('canvas');
      await canvas.scrollIntoViewIfNeeded();
      const c = (await canvas.boundingBox())!;
      await page.mouse.move(c.x + 20, c.y + 60);
      await page.mouse.down();
      for (const [dx, dy] of [
        [60, 30],
        [100, 70],
        [160, 20],
        [220, 60],
      ] as const)
        await page.mouse.move(c.x + dx, c.y + dy, { steps: 4 });
      await page.mouse.up();
      await page.locator('input[name="consent"]').check();
      await page.getByRole('button', { name: t('sig.sign'), exact: true }).click();

      await page.getByText(t('journey.step', { n: 4, total: 4 })).waitFor();
      await accessible(page);
      await page.getByRole('link', { name: t('pay.button', { amount: formatMinor(2500, 'usd', locale) }) }).click();
      await page.getByRole('button', { name: 'Pay' }).click();
      // back from Stripe on the journey's own link; done once Stripe's signed event is in
      await expect
        .poll(
          async () => {
            await page.reload();
            return page.getByRole('heading', { name: t('journey.done.title') }).isVisible();
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      await accessible(page);
      await page.context().close();

      const done = await call('GET', `/journeys/${journey.id}`);
      expect(done.body).toMatchObject({
        status: 'completed',
        steps: [{ taskStatus: 'approved' }, { taskStatus: 'submitted' }, { status: 'done' }, { taskStatus: 'succeeded' }],
      });
    });
  }

  it('the agent sends a journey from the Zoom panel, picked from the account\u2019s journeys, and follows it', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await page.addInitScript(
      zoomBridgeScript(
        encryptZoomContext(
          {
            typ: 'panel',
            uid: 'z-journey-agent',
            iss: 'marketplace.zoom.us',
            aud: ZOOM_APP_ID,
            ts: Date.now(),
            exp: Date.now() + 5 * 60_000,
          },
          ZOOM_SECRET,
        ),
      ),
    );
    await page.goto(`${server.url}/zoom/`);
    await page.getByRole('heading', { name: "You're not yet authorized" }).waitFor();
    await page.getByRole('button', { name: 'Journeys' }).click();
    const panel = page.getByRole('region', { name: 'Journeys' });
    await pickChoice(panel, 'Journey', 'move', 'Move-in');
    await panel.getByLabel('Phone number').fill('+15550109903');
    await panel.getByLabel("Caller's full name").fill('Rosa Parks');
    await accessible(page);
    await panel.getByRole('button', { name: 'Send journey' }).click();
    await panel.getByRole('status').filter({ hasText: 'Move-in' }).waitFor();
    await panel.getByText('Verify with a code: active').waitFor();
    expect(await outbox('+15550109903')).toHaveLength(1);
    await context.close();
  });

  it('the admin builds a journey with its preview, sends it from the console and watches the timeline move live', async () => {
    const page = await (await browser.newContext({ viewport: { width: 360, height: 780 } })).newPage();
    await page.goto(server.links[ADMIN]!);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.goto(`${server.url}/e-form`);
    await page.getByRole('link', { name: 'Several apps in one link: Journeys' }).click();
    await page.getByRole('heading', { name: 'Journeys', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New journey' }).click();
    await page.getByLabel('Name').fill('Code then address');
    await page.getByLabel('Add a step').selectOption('e-form');
    await page.getByRole('button', { name: 'Add step' }).click();
    await pickChoice(page.locator('li', { hasText: 'Step 2: Fill in a form' }), 'Form', 'address', 'Your address');
    const preview = page.getByLabel("Preview of the caller's SMS and pages");
    await preview.getByText('Step 2 of 2').waitFor();
    await preview.getByText('Enter your code').waitFor();
    await accessible(page);
    await page.getByRole('button', { name: 'Save journey' }).click();
    await page.getByRole('link', { name: 'Code then address' }).waitFor();

    const sendCard = page.locator('form', { has: page.getByRole('combobox', { name: 'Journey' }) });
    await pickChoice(sendCard, 'Journey', 'code then', 'Code then address');
    await sendCard.getByLabel('Phone number').fill('+15550109904');
    await sendCard.getByRole('button', { name: 'Send journey' }).click();
    await page.getByRole('heading', { name: 'Code then address', level: 1 }).waitFor();
    await page.getByText(/Journey sent to \+1 •••• •• 9904/).waitFor();
    await accessible(page);
    // the caller types the code on their phone: the console's timeline moves without a reload
    const sms = (await outbox('+15550109904'))[0]!.body;
    const link = sms.match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0];
    const answered = await fetch(link, { method: 'POST', body: new URLSearchParams({ code: sms.match(/\b(\d{6})\b/)![1]! }) });
    expect(await answered.text()).toContain('Step 2 of 2');
    await page.getByText('Step 1 (Verify with a code) done').waitFor({ timeout: 10_000 });
    await page.context().close();
  });
});
