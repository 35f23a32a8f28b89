import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, WCAG_22_AA } from './axe';
import { freePort, launchBrowser, settle, startServer } from './harness';
import { makeJpeg, sampleDocumentPng } from '../../api/apps/identity-verification/sample-images';
import type { Journey } from '../../api/contract/journeys';

// A journey of verifications as a caller lives it on the built server, in Chromium at 360 px with
// axe: one link; a passkey created and then used through Passkeys' own page and ceremony
// (Chromium's virtual authenticator, a real WebAuthn ceremony), then Identity Verification's own
// page (document, photo, selfie). Each step brings the caller back to the journey by itself: the
// passkey page goes on once its ceremony succeeded, and IDV's forms answer with the journey's
// link. The reviewer approves, and the journey's page says it is all done. The server runs on
// http://localhost: a passkey's RP ID must be a domain name.

const STAFF = 'staff@provider.test';
const PHONE = '+15550109911';
// ICAO 9303 specimen data with an expiry in 2034 (check digits computed for it)
const MRZ = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F3404159<<<<<<<<<<<<<<04'];

describe('A journey of a passkey and an identity check in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;

  const call = async (method: string, path: string, body?: unknown) => {
    const token = new URL(server.links[STAFF]!).searchParams.get('token')!;
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  };

  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ linkFor: [STAFF], env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}` } });
    expect((await call('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    expect([201, 409]).toContain((await call('POST', '/passkeys/billing/free-trial', {})).status);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function accessible(page: Page) {
    await settle(page);
    const violations = await axeViolations(page, { tags: WCAG_22_AA });
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }

  it('the caller creates a passkey, verifies with it and sends their identity photos behind one link, and is back on the journey after each step', async () => {
    const sent = await call('POST', '/journeys', {
      steps: [{ app: 'passkeys', action: 'enroll' }, { app: 'passkeys' }, { app: 'identity-verification' }],
      phoneNumber: PHONE,
      customerRef: 'CUST-JRN-PK',
      customerName: 'Anna Maria Eriksson',
      locale: 'en',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const journey = sent.body as unknown as Journey;
    const messages = ((await call('GET', '/dev/sms-outbox')).body as unknown as { to: string; body: string }[]).filter(
      (m) => m.to === PHONE,
    );
    expect(messages).toHaveLength(1);
    const link = messages[0]!.body.match(/http:\/\/localhost:\d+\/c\/[A-Za-z0-9_-]{43}/)![0];

    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const onJourney = () => expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);

    // 1. a passkey, created with Passkeys' own page and ceremony
    await page.goto(link);
    await page.getByText('Step 1 of 3').waitFor();
    await page.getByRole('heading', { name: 'Create a passkey' }).waitFor();
    const create = page.getByRole('button', { name: 'Create a passkey' });
    await expect.poll(() => create.isEnabled()).toBe(true);
    await accessible(page);
    await create.click();

    // 2. the ceremony succeeded: the journey's page came back with the next step, which uses it
    await page.getByText('Step 2 of 3').waitFor();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    onJourney();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.map((c) => c.rpId)).toEqual([
      'localhost',
    ]);
    const use = page.getByRole('button', { name: 'Use my passkey' });
    await expect.poll(() => use.isEnabled()).toBe(true);
    await use.click();

    // 3. Identity Verification's own page: each of its forms answers with the journey's link
    await page.getByText('Step 3 of 3').waitFor();
    await page.getByRole('heading', { name: 'Verify your identity' }).waitFor();
    await accessible(page);
    await page.getByLabel('Passport').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: '1. Front of the document' }).waitFor();
    onJourney();
    await page.getByText('Step 3 of 3').waitFor();
    await accessible(page);
    const front = page.locator('section#front');
    await front
      .getByLabel('Take a photo')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: sampleDocumentPng(1, 'front') });
    await front.getByRole('button', { name: 'Send the front of the document' }).click();
    await page.getByRole('list', { name: 'Photos to send' }).getByText('received ✓').waitFor();
    const selfie = page.locator('section#selfie');
    await selfie
      .getByLabel('Take a selfie')
      .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: makeJpeg(12, 16, () => 200) });
    await selfie.getByRole('button', { name: 'Send the selfie' }).click();
    await page.getByRole('button', { name: 'Send my photos' }).click();
    await page.getByRole('heading', { name: 'Thank you: your photos were sent' }).waitFor();
    onJourney();
    await page.getByText('When they have been checked, the next step opens at this link.').waitFor();
    await accessible(page);

    // the reviewer approves; the caller's "Continue" shows the journey done
    const sessionId = ((await call('GET', `/journeys/${journey.id}`)).body as unknown as Journey).steps[2]!.taskId!;
    expect((await call('POST', `/identity-verification/sessions/${sessionId}/mrz`, { lines: MRZ.join('\n') })).status).toBe(200);
    expect(
      (
        await call('POST', `/identity-verification/sessions/${sessionId}/decision`, {
          decision: 'approved',
          reason: 'document_and_selfie_match',
        })
      ).status,
    ).toBe(200);
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'All done' }).waitFor();
    onJourney();
    await accessible(page);
    await context.close();

    const done = (await call('GET', `/journeys/${journey.id}`)).body;
    expect(done).toMatchObject({
      status: 'completed',
      steps: [
        { app: 'passkeys', taskStatus: 'succeeded' },
        { app: 'passkeys', taskStatus: 'succeeded' },
        { app: 'identity-verification', taskStatus: 'approved' },
      ],
    });
  });
});
