import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { settle } from './harness';
import { exifGpsSegment, makeJpeg, sampleDocumentPng } from '../../api/apps/identity-verification/sample-images';

// Identity Verification as the provider's staff and a customer use it, on the built server: the
// reviewer starts a verification from the dashboard, the customer's phone (320 px) opens the
// link, photographs a passport and takes a selfie; the reviewer works the review queue (the Needs
// review view of Verifications) by keyboard (J/K between cases, A approve, D decline), takes and
// releases a case, types the MRZ, sees the checks in sentences and decides. The customer page
// passes axe at 320 px.

const STAFF = 'staff@provider.test';
const PHONE = '+15550107788';
const CUSTOMER = 'CUST-IDV-E2E';
const PHONE_2 = '+15550107799';
const CUSTOMER_2 = 'CUST-IDV-E2E-2';
// ICAO 9303 specimen data with an expiry in 2034 (check digits computed for it)
const MRZ = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F3404159<<<<<<<<<<<<<<04'];

async function expectAccessible(page: Page, exclude: string[] = []) {
  const violations = await axeViolations(page, { exclude });
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoSideScroll(page: Page, width: number) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `${page.url()} is ${scroll} px wide`).toBeLessThanOrEqual(width);
}

describe('Identity Verification in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let link = '';

  beforeAll(async () => {
    server = await startServer({ linkFor: [STAFF] });
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(server.links[STAFF]!);
    await page.getByRole('heading', { name: 'Identity Verification' }).first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the reviewer starts a verification from the dashboard and the link goes out by SMS', async () => {
    await page.goto(`${server.url}/identity-verification`);
    await page.getByTestId('kpi-started').waitFor();
    const start = page.getByRole('form', { name: 'Verify identity' });
    await start.getByLabel('Phone number').fill(PHONE);
    await start.getByLabel('Customer ID').fill(CUSTOMER);
    await start.getByLabel('Expected name').fill('Anna Maria Eriksson');
    await start.getByLabel('Expected date of birth').fill('1974-08-12');
    await start.getByRole('button', { name: 'Verify identity' }).click();
    await page.getByTestId('action-status').getByText('Link sent').waitFor();

    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: PHONE }).first();
    await message.waitFor();
    link = /(http\S+\/c\/[A-Za-z0-9_-]{43})/.exec((await message.locator('.sms-bubble').textContent()) ?? '')?.[1] ?? '';
    expect(link).toMatch(/\/c\//);
    await outbox.close();
  });

  it('the customer sends a passport and a selfie from a 320 px phone screen; the page passes axe', async () => {
    const phone = await browser.newContext({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    const customer = await phone.newPage();
    await customer.goto(link);
    await customer.getByRole('heading', { name: 'Verify your identity' }).waitFor();
    await expectAccessible(customer);
    await expectNoSideScroll(customer, 320);
    await customer.getByLabel('Passport').check();
    await customer.getByRole('button', { name: 'Continue' }).click();

    await customer.getByRole('heading', { name: '1. Front of the document' }).waitFor();
    await expectAccessible(customer);
    await expectNoSideScroll(customer, 320);
    const front = customer.locator('section#front');
    await front
      .getByLabel('Take a photo')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: sampleDocumentPng(1, 'front') });
    await front.getByRole('status').getByText('Chosen: front.png').waitFor();
    await front.getByRole('button', { name: 'Send the front of the document' }).click();
    await customer.getByRole('list', { name: 'Photos to send' }).getByText('received ✓').waitFor();

    // a GIF named .jpg is refused by its bytes, with the reason in words
    const selfie = customer.locator('section#selfie');
    await selfie.getByLabel('Or choose a saved photo').setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    });
    await selfie.getByRole('button', { name: 'Send the selfie' }).click();
    await customer.locator('section#selfie').getByRole('alert').getByText('not a JPEG or PNG photo').waitFor();
    await expectAccessible(customer);

    const withGps = makeJpeg(12, 16, (bx, by) => ((bx - 5.5) ** 2 / 12 + (by - 6.5) ** 2 / 25 < 1 ? 160 : 225), [
      exifGpsSegment(),
    ]);
    await customer
      .locator('section#selfie')
      .getByLabel('Take a selfie')
      .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: withGps });
    await customer.locator('section#selfie').getByRole('button', { name: 'Send the selfie' }).click();
    await customer.getByRole('button', { name: 'Send my photos' }).click();
    await customer.getByRole('heading', { name: 'Thank you: your photos were sent' }).waitFor();
    await expectAccessible(customer);
    await phone.close();
  });

  it('a second case waits in the queue (the customer posts its photos as a phone would)', async () => {
    await page.goto(`${server.url}/identity-verification`);
    const start = page.getByRole('form', { name: 'Verify identity' });
    await start.getByLabel('Phone number').fill(PHONE_2);
    await start.getByLabel('Customer ID').fill(CUSTOMER_2);
    await start.getByRole('button', { name: 'Verify identity' }).click();
    await page.getByTestId('action-status').getByText('Link sent').waitFor();
    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: PHONE_2 }).first();
    await message.waitFor();
    const second = /(http\S+\/c\/[A-Za-z0-9_-]{43})/.exec((await message.locator('.sms-bubble').textContent()) ?? '')?.[1] ?? '';
    await outbox.close();
    const phone = await browser.newContext();
    const post = async (path: string, multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>) => {
      const res = await phone.request.post(`${second}/idv/${path}`, {
        multipart,
        maxRedirects: 0,
        headers: { origin: server.url },
      });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(303);
    };
    await post('document', { documentType: 'passport' });
    await post('photo/front', { photo: { name: 'front.png', mimeType: 'image/png', buffer: sampleDocumentPng(2, 'front') } });
    await post('photo/selfie', { upload: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: makeJpeg(12, 16, () => 200) } });
    await post('submit', {});
    await phone.close();
  });

  it('a submitted case opens in the Needs review view of Verifications, not in a modal, with its badge in the attention colour', async () => {
    await page.goto(`${server.url}/identity-verification/verifications?customer=${CUSTOMER}`);
    const table = page.getByRole('table', { name: 'Verifications' });
    const row = table.getByRole('row').filter({ hasText: CUSTOMER });
    const badge = row.locator('.badge', { hasText: 'Submitted' });
    await badge.waitFor();
    // Submitted waits for a reviewer: not the green of Approved
    expect(await badge.getAttribute('class')).toContain('badge-info');
    await row.getByRole('link', { name: /Open verification/ }).click();
    await page
      .getByRole('navigation', { name: 'Verification views' })
      .getByRole('link', { name: 'Needs review' })
      .and(page.locator('[aria-current="page"]'))
      .waitFor();
    await page.getByRole('heading', { name: 'Verifications', level: 1 }).waitFor();
    const address = new URL(page.url());
    expect([address.pathname, address.searchParams.get('view')]).toEqual([
      '/identity-verification/verifications',
      'needs-review',
    ]);
    // three tabs, as SPEC §2 names them; the queue is a view of Verifications, which stays current
    const tabs = page.getByRole('navigation', { name: 'Identity Verification sections' });
    expect(await tabs.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Verifications', 'Configuration']);
    expect(await tabs.getByRole('link', { name: 'Verifications' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByText('decline with a reason').waitFor();
    const current = page.getByRole('navigation', { name: 'Cases waiting' }).locator('[aria-current="true"]');
    expect(await current.textContent()).toContain(CUSTOMER);
  });

  it('J and K move between the waiting cases; the open case follows in the URL', async () => {
    const current = page.getByRole('navigation', { name: 'Cases waiting' }).locator('[aria-current="true"]');
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('j');
    await expect.poll(() => current.textContent()).toContain(CUSTOMER_2);
    await page.getByRole('heading', { name: /^Case \d+ of \d+$/ }).waitFor();
    await page.keyboard.press('k');
    await expect.poll(() => current.textContent()).toContain(CUSTOMER);
    expect(new URL(page.url()).searchParams.get('session')).toBeTruthy();
  });

  it('Assign to me shows who holds the case: Assigned to you, then Release gives it back', async () => {
    const facts = page.locator('.idv-case');
    await facts.getByText('Not assigned').first().waitFor();
    await facts.getByRole('button', { name: 'Assign to me' }).click();
    await facts.getByText('Assigned to you').first().waitFor();
    await facts.getByRole('button', { name: 'Release' }).click();
    await facts.getByRole('button', { name: 'Assign to me' }).waitFor();
    await facts.getByRole('button', { name: 'Assign to me' }).click();
    await facts.getByRole('button', { name: 'Release' }).waitFor();
    const mine = page.getByRole('navigation', { name: 'Cases waiting' }).locator('[aria-current="true"]');
    await expect.poll(() => mine.textContent()).toContain('Assigned to you');
  });

  it('the reviewer sees the photos, types the MRZ, reads the checks in plain sentences and approves by keyboard', async () => {
    const review = page.locator('.idv-case');
    const selfie = review.getByRole('img', { name: 'Selfie' });
    await selfie.waitFor();
    await expect.poll(() => selfie.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    await expect
      .poll(() =>
        review.getByRole('img', { name: 'Front of the document' }).evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(172);
    await review.getByText('Text recognition (OCR) is not available here').waitFor();
    const checks = review.getByRole('table', { name: 'Checks' });
    await checks.getByText('The MRZ has not been typed in yet').first().waitFor();
    // sentences only: no reason code beside them
    expect(await checks.textContent()).not.toMatch(/[a-z]+_[a-z]+/);
    for (const name of ['Face match (selfie against document photo)', 'Liveness']) {
      const row = checks.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
      expect(await row.locator('.badge').textContent()).toBe('Not available');
    }

    await review.getByLabel('MRZ lines').fill(MRZ.join('\n'));
    await review.getByRole('button', { name: 'Run checks' }).click();
    await checks.getByRole('row').filter({ hasText: 'check digits' }).getByText('Passed').waitFor();
    await checks.getByRole('row').filter({ hasText: 'Name as expected' }).getByText('Passed').waitFor();
    expect(await checks.textContent()).not.toMatch(/[a-z]+_[a-z]+/);
    await review.getByText('ERIKSSON, ANNA MARIA').waitFor();
    await expectAccessible(page);

    // A picks Approve and focuses the reason; the arrow chooses one, Enter confirms
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('a');
    const decision = review.getByRole('form', { name: 'Decision' });
    await expect.poll(() => decision.getByLabel('Approve').isChecked()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute('id') ?? ''))
      .toBe(await decision.getByLabel('Reason').getAttribute('id'));
    await decision.getByLabel('Reason').selectOption('document_and_selfie_match');
    await decision.getByLabel('Reason').press('Enter');
    await review.getByText(/Approved by Sasha Staff/).waitFor();
    await review
      .getByRole('list', { name: 'Timeline' })
      .getByText('Approved: Document genuine and the selfie matches it')
      .waitFor();
    const approved = review.locator('.task-facts .badge', { hasText: 'Approved' });
    expect(await approved.getAttribute('class')).toContain('badge-success');
    // decided: it leaves the queue
    await expect
      .poll(() =>
        page
          .getByRole('navigation', { name: 'Cases waiting' })
          .textContent()
          .catch(() => ''),
      )
      .not.toContain(`${CUSTOMER}Submitted`);
  });

  it('D picks Decline (as its button says) and the reason; the toast says "Verification declined" and the case shows red', async () => {
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('j');
    const current = page.getByRole('navigation', { name: 'Cases waiting' }).locator('[aria-current="true"]');
    await expect.poll(() => current.textContent()).toContain(CUSTOMER_2);
    const review = page.locator('.idv-case');
    await review.getByRole('form', { name: 'Decision' }).waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('d');
    const decision = review.getByRole('form', { name: 'Decision' });
    await expect.poll(() => decision.getByLabel('Decline').isChecked()).toBe(true);
    await decision.getByLabel('Reason').selectOption('suspected_fraud');
    await decision.getByLabel('Reason').press('Enter');
    await page.getByText('Verification declined').waitFor();
    await review.getByText(/Declined by Sasha Staff/).waitFor();
    expect(await review.locator('.task-facts .badge', { hasText: 'Declined' }).getAttribute('class')).toContain('badge-danger');
  });

  it('Verifications, the dashboard and Configuration fit a 360 px side panel and pass axe', async () => {
    // axe needs its page in a context of its own
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const narrow = await context.newPage();
    await narrow.goto(server.links[STAFF]!);
    await narrow.getByRole('heading', { name: 'Identity Verification' }).first().waitFor();
    for (const [path, heading] of [
      ['', 'Identity Verification'],
      ['/verifications', 'Verifications'],
      ['/verifications?view=needs-review', 'Verifications'],
      ['/settings/general', 'Identity Verification: General'],
    ] as const) {
      await narrow.goto(`${server.url}/identity-verification${path}`);
      await narrow.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await settle(narrow);
      await narrow
        .waitForFunction(() => !document.querySelector('[aria-busy="true"], .spinner'), undefined, { timeout: 15_000 })
        .catch(() => {});
      await expectNoSideScroll(narrow, 360);
      // the console header's search button loses its name below 400 px: the shell's, not this app's
      await expectAccessible(narrow, ['.search-trigger']);
    }
    await context.close();
  });
});
