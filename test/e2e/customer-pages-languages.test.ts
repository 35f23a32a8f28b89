import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeViolations, WCAG_22_AA } from './axe';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { freePort, launchBrowser, startServer } from './harness';
import { isLocale, isRtl, LOCALE_ENGLISH_NAMES, LOCALES, type Locale } from '../../api/contract/locales';
import { translate } from '../../api/customer-pages/i18n/index';
import { builtInSmsText } from '../../api/contract/sms-translations';
import { PASSKEY_TEMPLATES } from '../../api/contract/apps/passkeys';
import { EFORM_TEMPLATES } from '../../api/contract/apps/e-form';
import type { TaskDetail } from '../../api/contract/platform';
import { IDV_TEMPLATES } from '../../api/contract/apps/identity-verification';
import { SIG_TEMPLATES } from '../../api/contract/apps/document-signature';
import { makeJpeg, sampleDocumentPng, sampleSelfieJpeg } from '../../api/apps/identity-verification/sample-images';
import { makePdf } from '../support/pdfs';

// Customer pages in the caller's language, in Chromium: the agent sends in a language (/api/v1
// `locale`), the SMS is in it, the page is in it (right to left in Arabic), the caller completes,
// and the task's timeline names the language. Every state checked here passes axe (WCAG 2.2 A/AA)
// at 320 px and at 200 % zoom. The suite runs English and Arabic; `npm run check:pages` runs
// every language (CUSTOMER_PAGE_LANGUAGES=all).

const wanted = process.env.CUSTOMER_PAGE_LANGUAGES ?? 'en,ar';
const LANGUAGES: Locale[] = wanted === 'all' ? [...LOCALES] : wanted.split(',').filter(isLocale);

/** axe at 320 px and at 200 % zoom (a 1280 px window zoomed twice), and no sideways scrolling at 320 px. */
async function expectAccessible(page: Page, what: string) {
  for (const view of [
    { width: 320, height: 640, zoom: '1' },
    { width: 1280, height: 800, zoom: '2' },
  ]) {
    await page.setViewportSize({ width: view.width, height: view.height });
    await page.evaluate((z) => ((document.documentElement.style as CSSStyleDeclaration & { zoom: string }).zoom = z), view.zoom);
    const violations = await axeViolations(page, { tags: WCAG_22_AA });
    expect(
      violations.map((v) => v.id),
      `${what} at ${view.width} px, zoom ${view.zoom}:\n${describeViolations(violations)}`,
    ).toEqual([]);
    if (view.zoom === '1')
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what} fits 320 px`).toBeLessThanOrEqual(320);
  }
  await page.evaluate(() => ((document.documentElement.style as CSSStyleDeclaration & { zoom: string }).zoom = '1'));
}

describe("customer pages in the caller's language", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let session: string;
  let apiKey: string;
  // passkeys run on Globex with a trial of their own, and identity verification on the provider's
  // account (the only one that offers it): the demo Acme's passkeys trial has 4 links left after
  // its seeded history, fewer than the seven languages of `npm run check:pages`
  let passkeyKey: string;
  let idvKey: string;
  let formId: string;
  let phoneCounter = 0;
  const freshPhone = () => `+1415558${String(1000 + phoneCounter++).padStart(4, '0')}`;

  const sessions: Record<string, string> = {};
  const api = async (method: string, path: string, body?: unknown, key = `Bearer ${session}`) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res;
  };
  const lastSms = async (to: string, as = session) => {
    const list = (await (await api('GET', '/dev/sms-outbox', undefined, `Bearer ${as}`)).json()) as {
      to: string;
      body: string;
    }[];
    return list.find((m) => m.to === to)!.body;
  };
  /** The link of an SMS, on the test server (the SMS names the public URL, the same here). */
  const linkIn = (sms: string) => /(http:\/\/localhost:\d+\/c\/[A-Za-z0-9_-]{43})/.exec(sms)![1]!;

  beforeAll(async () => {
    const port = await freePort();
    const owners = ['owner@acme.test', 'owner@globex.test', 'staff@provider.test'];
    server = await startServer({ linkFor: owners, env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}` } });
    for (const who of owners) sessions[who] = new URL(server.links[who]!).searchParams.get('token')!;
    session = sessions['owner@acme.test']!;
    const keyOf = async (who: string) => {
      expect((await api('POST', '/sms', { provider: 'dev-outbox' }, `Bearer ${sessions[who]}`)).status).toBe(200);
      return (
        (await (await api('GET', '/accounts/developer', undefined, `Bearer ${sessions[who]}`)).json()) as { secretKey: string }
      ).secretKey;
    };
    apiKey = await keyOf('owner@acme.test');
    passkeyKey = await keyOf('owner@globex.test');
    expect((await api('POST', '/passkeys/billing/free-trial', {}, `Bearer ${sessions['owner@globex.test']}`)).status).toBe(201);
    idvKey = await keyOf('staff@provider.test');
    const created = await api('POST', '/e-form/forms', {
      definition: {
        title: 'Change of address',
        description: '',
        hiddenFields: [],
        fields: [
          { id: 'fullName', type: 'short_text', label: 'Full name', required: true },
          { id: 'agree', type: 'consent', label: 'I confirm these details are correct', required: true },
        ],
      },
    });
    expect(created.status).toBe(201);
    formId = ((await created.json()) as { id: string }).id;
    expect((await api('POST', `/e-form/forms/${formId}/publish`, { confirm: true })).status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function phone(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    return { context, page: await context.newPage() };
  }

  /** Acme's "Lease" (two pages with their images, one signature field), published once for the tests that send it. */
  let lease: Promise<string> | undefined;
  const leaseDocument = () =>
    (lease ??= (async () => {
      const owner = `Bearer ${session}`;
      expect((await api('POST', '/document-signature/billing/free-trial', {}, owner)).status).toBe(201);
      const uploaded = await fetch(`${server.url}/api/document-signature/documents?name=Lease`, {
        method: 'POST',
        headers: { authorization: owner, 'content-type': 'application/pdf', 'x-file-name': 'lease.pdf' },
        body: Buffer.from(await makePdf(2)),
      });
      expect(uploaded.status).toBe(201);
      const docId = ((await uploaded.json()) as { id: string }).id;
      const signature = {
        id: 's1',
        kind: 'signature',
        page: 1,
        x: 0.1,
        y: 0.7,
        w: 0.4,
        h: 0.08,
        label: 'Signature',
        required: true,
      };
      expect(
        (await api('PUT', `/document-signature/documents/${docId}/draft`, { name: 'Lease', fields: [signature] }, owner)).status,
      ).toBe(200);
      const jpeg = (blocks: number) =>
        `data:image/jpeg;base64,${makeJpeg(blocks, Math.round(blocks * 1.4), (x, y) => ((x + y) % 3 ? 240 : 90)).toString('base64')}`;
      expect(
        (
          await api(
            'POST',
            `/document-signature/documents/${docId}/publish`,
            { pageImages: [jpeg(60), jpeg(60)], pageImagesSmall: [jpeg(30), jpeg(30)] },
            owner,
          )
        ).status,
      ).toBe(201);
      return docId;
    })());

  it('a second visit to the signature page downloads no page image again (same addresses, cached immutable for the link’s life)', async () => {
    const docId = await leaseDocument();
    const to = freshPhone();
    expect(
      (
        await api(
          'POST',
          '/v1/signatures',
          { documentId: docId, phoneNumber: to, signerName: 'Layla Haddad' },
          `Bearer ${apiKey}`,
        )
      ).status,
    ).toBe(201);
    const link = linkIn(await lastSms(to));

    const { context, page } = await phone();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // bytes that crossed the network for each page image (a cache hit transfers none)
    let bytes = 0;
    let fetched = 0;
    const images = new Set<string>();
    /** page images asked for and not yet finished */
    const pending = new Set<string>();
    const pageImage = /\/pages\/\d+-[ls]-[0-9a-f]{16}\.jpg$/;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (pageImage.test(e.request.url)) images.add(e.requestId), pending.add(e.requestId);
    });
    cdp.on('Network.loadingFailed', (e) => pending.delete(e.requestId));
    cdp.on('Network.requestServedFromCache', (e) => pending.delete(e.requestId));
    cdp.on('Network.loadingFinished', (e) => {
      if (!images.has(e.requestId)) return;
      pending.delete(e.requestId);
      bytes += e.encodedDataLength;
      if (e.encodedDataLength > 0) fetched++;
    });
    // Each visit sees every page image, the lazy ones below the fold too, and ends when none is in
    // flight: an image the first visit had not finished must not count against the second.
    const visit = async () => {
      bytes = 0;
      fetched = 0;
      await page.goto(link);
      await page.waitForLoadState('load');
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      // both pages of the document
      await page.waitForFunction(() => {
        const shown = [...document.images].filter((i) => /\/pages\//.test(i.currentSrc || i.src));
        return shown.length >= 2 && shown.every((i) => i.complete && i.naturalWidth > 0);
      });
      await expect.poll(() => pending.size, { timeout: 10_000 }).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      return { bytes, fetched, src: await page.evaluate(() => document.images[0]!.currentSrc) };
    };
    const first = await visit();
    expect(first.fetched).toBeGreaterThan(0);
    expect(first.bytes).toBeGreaterThan(1000);
    // a phone at 1x and 320 px takes the small image
    expect(first.src).toMatch(/\/pages\/1-s-[0-9a-f]{16}\.jpg$/);
    const second = await visit();
    expect(second.src).toBe(first.src);
    expect(second).toMatchObject({ bytes: 0, fetched: 0 });
    await context.close();
  });

  describe.each(LANGUAGES)('in %s', (locale) => {
    const t = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) => translate(locale, key, values);
    const dir = isRtl(locale) ? 'rtl' : 'ltr';
    /** How an app's built-in SMS text begins in this language, up to its link. */
    const smsOpening = (app: string, key: string, body: string, company: string) =>
      builtInSmsText(app, key, locale, body).split('{{link}}')[0]!.replace('{{company}}', company);
    /** The link of an SMS opened on a 320 px phone: the page says it is in this language, and its direction. */
    const openOnPhone = async (sms: string) => {
      const opened = await phone();
      await opened.page.goto(linkIn(sms));
      expect(await opened.page.getAttribute('html', 'lang')).toBe(locale);
      expect(await opened.page.getAttribute('html', 'dir')).toBe(dir);
      return opened;
    };

    it('the agent sends a form in this language; the SMS and the page are in it; errors are announced and focused; the caller completes; the timeline names the language', async () => {
      const to = freshPhone();
      const sent = await api('POST', `/v1/forms/${formId}/requests`, { phoneNumber: to, locale }, `Bearer ${apiKey}`);
      expect(sent.status).toBe(201);
      const request = (await sent.json()) as { id: string };
      const sms = await lastSms(to);
      expect(sms.startsWith(smsOpening('e-form', 'form', EFORM_TEMPLATES[0]!.defaultBody, 'Acme Support'))).toBe(true);

      const { context, page } = await openOnPhone(sms);
      await page.getByRole('button', { name: t('eform.submit') }).waitFor();
      await expectAccessible(page, 'the form');

      // sent empty: the summary is announced (role=alert) and focus goes to the first field in error
      await page.getByRole('button', { name: t('eform.submit') }).click();
      await page
        .getByRole('alert')
        .getByText(t('eform.correct', { n: 2 }))
        .waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('fullName');
      await expectAccessible(page, 'the form with errors');

      await page.getByLabel('Full name').fill('Layla Haddad');
      await page.getByLabel('I confirm these details are correct').check();
      await page.getByRole('button', { name: t('eform.submit') }).click();
      await page.getByRole('heading', { name: t('eform.thanks.title') }).waitFor();
      await expectAccessible(page, 'the thank-you page');

      // used: the same link now says so, in the same language
      await page.goto(linkIn(sms));
      await page.getByRole('heading', { name: t('state.used.title') }).waitFor();
      await expectAccessible(page, 'the used link');
      await context.close();

      const detail = (await (await api('GET', `/e-form/tasks/${request.id}`)).json()) as TaskDetail;
      expect(detail.events.map((e) => e.description)).toContain(
        `Caller's language: ${LOCALE_ENGLISH_NAMES[locale]} (the agent's choice)`,
      );
    });

    it('the passkey page is usable at first paint, works by keyboard, and the caller creates a passkey', async () => {
      const to = freshPhone();
      const sent = await api(
        'POST',
        '/v1/passkeys/enrollments',
        { customerRef: `L-${to}`, phoneNumber: to, displayName: 'Layla', locale },
        `Bearer ${passkeyKey}`,
      );
      expect(sent.status, await sent.clone().text()).toBe(201);
      const sms = await lastSms(to, sessions['owner@globex.test']);
      expect(sms).toContain(smsOpening('passkeys', 'enrollment', PASSKEY_TEMPLATES[0]!.defaultBody, 'Globex Care'));

      const { context, page } = await phone();
      const cdp: CDPSession = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await page.goto(linkIn(sms), { waitUntil: 'commit' });
      const button = page.getByRole('button', { name: t('passkey.enroll.button') });
      await button.waitFor();
      // enabled in the HTML itself, not only once its script has run
      expect(await button.isEnabled()).toBe(true);
      expect(await page.getAttribute('html', 'dir')).toBe(dir);
      await page.waitForLoadState('load');
      await expectAccessible(page, 'the passkey page');
      await button.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: t('passkey.created.title') }).waitFor();
      await page.getByText(t('passkey.created.text')).waitFor();
      await expectAccessible(page, 'the passkey created');
      await context.close();
    });

    it(`document signature: the agent sends in this language; the SMS and the page are in it; the caller ${isRtl(locale) ? 'draws on the pad (right to left)' : 'types a signature by keyboard'}, is told what is missing, and signs; the timeline names the language`, async () => {
      const docId = await leaseDocument();
      const to = freshPhone();
      const sent = await api(
        'POST',
        '/v1/signatures',
        { documentId: docId, phoneNumber: to, signerName: 'Layla Haddad', locale },
        `Bearer ${apiKey}`,
      );
      expect(sent.status, await sent.clone().text()).toBe(201);
      const request = (await sent.json()) as { id: string };
      const sms = await lastSms(to);
      expect(sms.startsWith(smsOpening('document-signature', 'request', SIG_TEMPLATES[0]!.defaultBody, 'Acme Support'))).toBe(
        true,
      );

      const { context, page } = await openOnPhone(sms);
      await page.getByRole('heading', { name: t('sig.title', { document: 'Lease' }) }).waitFor();
      await page.waitForLoadState('load');
      await expectAccessible(page, 'the signature page');

      // Sign with nothing given: the problems are announced in this language
      await page.getByRole('button', { name: t('sig.sign'), exact: true }).click();
      await page.getByRole('alert').getByText(t('sig.problem.consent')).waitFor();
      await expectAccessible(page, 'the signature page with its problems');

      if (isRtl(locale)) {
        const canvas = page.locator('canvas');
        await canvas.scrollIntoViewIfNeeded();
        const c = (await canvas.boundingBox())!;
        // a name written from the right, as an Arabic signature goes
        await page.mouse.move(c.x + c.width * 0.92, c.y + c.height * 0.55);
        await page.mouse.down();
        for (const [fx, fy] of [
          [0.75, 0.3],
          [0.62, 0.7],
          [0.45, 0.25],
          [0.3, 0.65],
          [0.1, 0.4],
        ] as const)
          await page.mouse.move(c.x + c.width * fx, c.y + c.height * fy, { steps: 4 });
        await page.mouse.up();
      } else {
        const typed = page.getByLabel(t('sig.typeName'));
        await typed.focus();
        await page.keyboard.type('Layla Haddad');
      }
      await page.getByLabel(t('sig.consent')).check();
      await page.getByRole('button', { name: t('sig.sign'), exact: true }).click();
      await page.getByRole('heading', { name: t('sig.signed.title') }).waitFor();
      await expectAccessible(page, 'the signed page');
      await context.close();

      const detail = (await (await api('GET', `/document-signature/tasks/${request.id}`)).json()) as TaskDetail;
      expect(detail.events.map((e) => e.description)).toContain(
        `Caller's language: ${LOCALE_ENGLISH_NAMES[locale]} (the agent's choice)`,
      );
    });

    it('identity verification: the agent sends in this language; every capture step is in it, passes axe, refuses a bad photo in it, and the caller sends their photos', async () => {
      const to = freshPhone();
      const sent = await api(
        'POST',
        '/v1/idv/sessions',
        { customerRef: `ID-${to}`, phoneNumber: to, locale },
        `Bearer ${idvKey}`,
      );
      expect(sent.status, await sent.clone().text()).toBe(201);
      const started = (await sent.json()) as { id: string };
      const sms = await lastSms(to, sessions['staff@provider.test']);
      expect(sms).toContain(smsOpening('identity-verification', 'link', IDV_TEMPLATES[0]!.defaultBody, 'Switchboard'));

      const { context, page } = await openOnPhone(sms);
      await page.getByRole('heading', { name: t('idv.title') }).waitFor();
      await expectAccessible(page, 'the document choice');
      await page.getByLabel(t('idv.doc.passport')).check();
      await page.getByRole('button', { name: t('idv.continue') }).click();

      const front = page.locator('section#front');
      await front.getByRole('heading', { name: t('idv.side.front') }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await expectAccessible(page, 'the capture steps');
      // the script's words are this language's too
      await front
        .getByLabel(t('idv.takePhoto'))
        .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: sampleDocumentPng(3, 'front') });
      const chosen = t('idv.script.chosen', { name: 'front.png', size: '{size}' }).split('{size}')[0]!;
      await front.getByRole('status').getByText(chosen).waitFor();
      await front.getByRole('button', { name: t('idv.send.front') }).click();
      await page
        .getByRole('list', { name: t('idv.photos') })
        .getByText(t('idv.received', { side: t('idv.side.front') }))
        .waitFor();

      // a file that is not a photo: refused by its bytes, announced in this language, with focus-free layout intact
      const selfie = page.locator('section#selfie');
      await selfie.locator('input[name=upload]').setInputFiles({
        name: 'me.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      });
      await selfie.getByRole('button', { name: t('idv.send.selfie') }).click();
      await selfie.getByRole('alert').getByText(t('idv.error.IMAGE_TYPE')).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await expectAccessible(page, 'a refused photo');

      await page
        .locator('section#selfie')
        .getByLabel(t('idv.takeSelfie'))
        .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: sampleSelfieJpeg(3) });
      await page
        .locator('section#selfie')
        .getByRole('button', { name: t('idv.send.selfie') })
        .click();
      await page.getByRole('button', { name: t('idv.sendPhotos') }).click();
      await page.getByRole('heading', { name: t('idv.sent.title') }).waitFor();
      await expectAccessible(page, 'the photos sent');
      await context.close();

      const detail = (await (
        await api('GET', `/identity-verification/tasks/${started.id}`, undefined, `Bearer ${sessions['staff@provider.test']}`)
      ).json()) as TaskDetail;
      expect(detail.events.map((e) => e.description)).toContain(
        `Caller's language: ${LOCALE_ENGLISH_NAMES[locale]} (the agent's choice)`,
      );
    });

    it('an unknown link is explained in this language', async () => {
      const { context, page } = await phone();
      await page.goto(`${server.url}/c/${'x'.repeat(43)}?lang=${locale}`);
      await page.getByRole('heading', { name: t('state.unknown.title') }).waitFor();
      await expectAccessible(page, 'the unknown link');
      await context.close();
    });
  });
});
