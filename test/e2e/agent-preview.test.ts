import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, WCAG_22_AA } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, pickChoice, settle, startServer } from './harness';
import { encryptZoomContext, startZoomPeer, zoomBridgeScript, zoomServerEnv, type ZoomPeer } from '../fixtures/host-peers';
import {
  callAs,
  connectStripe,
  publishSignatureDocument,
  startLoopbackConnect,
  type LoopbackConnect,
} from '../support/built-server-setup';

// The Agent Preview as an agent on a call uses it inside Zoom (the real Zoom SDK against an
// injected Zoom bridge): a user of a domain the account owns, with no console access, gets an
// agent session and sends a document, a form and a payment link, each picked from its list
// with the keyboard (type, Enter), never by pasting an id. At 360 px, axe-clean with a list open.

const ZOOM_APP_ID = 'e2e-zoom-agent-app';
const ZOOM_SECRET = 'e2e-zoom-agent-app-client-secret';
const ACME = 'owner@acme.test';
const GLOBEX = 'owner@globex.test';

describe('Agent Preview pickers in Zoom', () => {
  let zoom: ZoomPeer;
  let stripe: LoopbackConnect;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;

  const call = (as: string, method: string, path: string, body?: unknown) => callAs(server, as, method, path, body);

  beforeAll(async () => {
    zoom = await startZoomPeer([
      { id: 'z-agent-acme', email: 'maya.agent@acme.test', first_name: 'Maya', last_name: 'Agent' },
      { id: 'z-agent-globex', email: 'gil.agent@globex.test', first_name: 'Gil', last_name: 'Agent' },
    ]);
    stripe = await startLoopbackConnect('ca_e2e_agent', 'whsec_connect_agent');
    server = await startServer({
      linkFor: [ACME, GLOBEX],
      env: { ...zoomServerEnv(zoom, ZOOM_APP_ID, ZOOM_SECRET), ...stripe.env },
    });
    stripe.deliverTo(server);

    // Acme's admin: the SMS outbox, a published document and a published form
    for (const owner of [ACME, GLOBEX]) expect((await call(owner, 'POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    expect((await call(ACME, 'POST', '/document-signature/billing/free-trial', {})).status).toBe(201);
    await publishSignatureDocument(server, ACME, 'Car loan agreement', 'car-loan.pdf');
    const form = await call(ACME, 'POST', '/e-form/forms', {
      definition: {
        title: 'Windscreen claim',
        hiddenFields: [],
        fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }],
      },
    });
    expect((await call(ACME, 'POST', `/e-form/forms/${form.body.id as string}/publish`, {})).status).toBe(200);

    // Globex's admin: Stripe connected (through the loopback authorize step) and a product
    await connectStripe(server, GLOBEX, stripe.connect);
    expect(
      (
        await call(GLOBEX, 'POST', '/payments/products', {
          name: 'Gutter cleaning',
          description: 'Front and back',
          unitAmount: 8500,
          currency: 'usd',
        })
      ).status,
    ).toBe(201);

    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await zoom?.close();
    await stripe?.peer.close();
  });

  /** The Zoom entry as `uid`, 360 px wide: the agent's card with the Agent Preview. */
  async function agentPanel(uid: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await page.addInitScript(
      zoomBridgeScript(
        encryptZoomContext(
          { typ: 'panel', uid, iss: 'marketplace.zoom.us', aud: ZOOM_APP_ID, ts: Date.now(), exp: Date.now() + 5 * 60_000 },
          ZOOM_SECRET,
        ),
      ),
    );
    await page.goto(`${server.url}/zoom/`);
    await page.getByRole('heading', { name: "You're not yet authorized" }).waitFor();
    await page.getByRole('region', { name: 'Agent Preview list' }).waitFor();
    return page;
  }

  const fitsWidth = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const outboxHas = async (as: string, phone: string) =>
    ((await call(as, 'GET', '/dev/sms-outbox')).body as unknown as { to: string }[]).some((m) => m.to === phone);

  it('an agent picks the published document from its list and sends it for signature', async () => {
    const page = await agentPanel('z-agent-acme');
    await page.getByRole('button', { name: 'Document Signature' }).click();
    const send = page.getByRole('form', { name: 'Send for signature' });
    // the list opens with the arrow key and shows the version and when it was published
    const box = send.getByRole('combobox', { name: 'Document' });
    await box.focus();
    await box.press('ArrowDown');
    const option = send.getByRole('option', { name: /^Car loan agreement, Version 1 · published / });
    await option.waitFor();
    await fitsWidth(page);
    await settle(page);
    const violations = await axeViolations(page, { tags: WCAG_22_AA });
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await box.press('Escape');
    await pickChoice(send, 'Document', 'car loan', 'Car loan agreement');
    await send.getByText(/^Version 1 · published /).waitFor();
    await send.getByLabel("Signer's full name").fill('Ada Lovelace');
    await send.getByLabel('Phone number').fill('+15550108801');
    await send.getByRole('button', { name: 'Send for signature' }).click();
    await page.getByTestId('action-status').filter({ hasText: 'Car loan agreement sent to Ada Lovelace' }).waitFor();
    expect(await outboxHas(ACME, '+15550108801')).toBe(true);
    await page.context().close();
  });

  it('an agent picks the published form and sends it', async () => {
    const page = await agentPanel('z-agent-acme');
    await page.getByRole('button', { name: 'eForm' }).click();
    const send = page.getByRole('form', { name: 'Send a form' });
    await pickChoice(send, 'Form', 'windscreen', 'Windscreen claim');
    await send.getByLabel('Phone number').fill('+15550108802');
    await send.getByRole('button', { name: 'Send a form' }).click();
    await page.getByTestId('action-status').getByText('Sent').waitFor();
    expect(await outboxHas(ACME, '+15550108802')).toBe(true);
    await fitsWidth(page);
    await page.context().close();
  });

  it('an agent picks a product with its price and requests the payment', async () => {
    const page = await agentPanel('z-agent-globex');
    await page.getByRole('button', { name: 'Payments' }).click();
    const form = page.getByRole('form', { name: 'Request a payment' });
    await form.getByLabel('Phone number').fill('+15550108803');
    await pickChoice(form, 'Product', 'gutter', 'Gutter cleaning');
    await form.getByText(/^\$85\.00 · changed /).waitFor();
    await form.getByRole('button', { name: 'Request a payment' }).click();
    await page.getByTestId('action-status').getByText('Requested').waitFor();
    expect(await outboxHas(GLOBEX, '+15550108803')).toBe(true);
    // the Checkout session was made for the picked product's price, on the connected account
    const session = stripe.connect.calls.find((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions')!;
    expect(JSON.stringify(session.body)).toContain('price_');
    await page.context().close();
  });
});
