import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, pickChoice, startServer } from './harness';
import { settle } from './harness';

// eForm as an admin and a customer use it, on the built server: build a form with a condition in
// the builder (the preview follows it), publish, send it from the dashboard, fill it on the
// customer page at 320 px (the condition shows and hides a field; the page's script checks as
// the server does), then find the submission and export it.

const PHONE = '+15550107788';

async function expectAccessible(page: Page) {
  await settle(page);
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('eForm in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let formUrl = '';
  let link = '';

  beforeAll(async () => {
    server = await startServer({ linkFor: ['owner@acme.test'] });
    const token = new URL(server.links['owner@acme.test']!).searchParams.get('token')!;
    const sms = await fetch(`${server.url}/api/sms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'dev-outbox' }),
    });
    expect(sms.status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page
      .getByRole('heading', { name: 'One-Time Passcode' })
      .or(page.getByRole('heading', { name: 'Apps' }))
      .first()
      .waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an admin builds a form with a condition; the preview shows and hides the field', async () => {
    await page.goto(`${server.url}/e-form/forms/new`);
    await page.getByLabel('Title').fill('Claim E2E');
    // the form is stored when its author saves it
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/e-form\/forms\/[0-9a-f-]{36}$/);
    formUrl = page.url();

    const editor = page.getByRole('group', { name: /^Settings of/ });
    await page.getByRole('button', { name: 'Single choice' }).click();
    await editor.getByLabel('Label', { exact: true }).fill('What happened');
    await editor.getByLabel('Options').fill('Theft\nDamage');
    await editor.getByLabel('Field id (in exports and webhooks)').fill('kind');

    await page.getByRole('button', { name: 'Short text' }).click();
    await editor.getByLabel('Label', { exact: true }).fill('Police report number');
    await editor.getByLabel('Field id (in exports and webhooks)').fill('police');
    await editor.getByLabel('Required').check();
    await editor.getByRole('button', { name: 'Add a condition' }).click();
    await editor.getByLabel('Rule 1: answer to').selectOption({ label: 'What happened' });
    await editor.getByLabel('Value').selectOption('Theft');

    // reorder by keyboard and back: the police field moves above and returns below
    await page
      .getByTestId('field-police')
      .getByRole('button', { name: /^Police report number/ })
      .focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => page.locator('.eform-fields > li').first().getAttribute('data-testid')).toBe('field-police');
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => page.locator('.eform-fields > li').first().getAttribute('data-testid')).toBe('field-kind');

    const preview = page.getByRole('form', { name: 'Preview' });
    await expect.poll(() => preview.getByLabel('Police report number').count()).toBe(0);
    await preview.getByLabel('Theft').check();
    await preview.getByLabel('Police report number').waitFor();
    await preview.getByLabel('Damage').check();
    await expect.poll(() => preview.getByLabel('Police report number').count()).toBe(0);

    await page.getByTestId('save-state').getByText('All changes saved').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published · v1').waitFor();
  });

  it('the form is sent from the dashboard and the customer gets a link', async () => {
    await page.goto(`${server.url}/e-form`);
    const send = page.getByRole('form', { name: 'Send a form' });
    await pickChoice(send, 'Form', 'claim e2e', 'Claim E2E');
    await send.getByLabel('Phone number').fill(PHONE);
    await send.getByLabel('Customer ID').fill('CUST-E2E-9');
    await send.getByLabel('Case ID').fill('CASE-9');
    await send.getByRole('button', { name: 'Send a form' }).click();
    await page.getByTestId('action-status').getByText('Sent').waitFor();
    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: PHONE }).first();
    await message.waitFor();
    link = /https?:\/\/\S+/.exec((await message.locator('.sms-bubble').textContent()) ?? '')![0];
    await outbox.close();
  });

  it('the customer fills it at 320 px: the condition shows and hides the field, the script checks as the server does', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    const customer = await context.newPage();
    const errors: string[] = [];
    customer.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await customer.goto(`${server.url}${new URL(link).pathname}`);
    await customer.getByRole('heading', { name: 'Claim E2E' }).waitFor();
    await expectAccessible(customer);
    expect(
      await customer.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);

    const police = customer.getByLabel(/Police report number/);
    expect(await police.isVisible()).toBe(false);
    await customer.getByLabel('Theft').check();
    await police.waitFor({ state: 'visible' });
    await customer.getByLabel('Damage').check();
    await police.waitFor({ state: 'hidden' });
    await customer.getByLabel('Theft').check();
    // the required police number is checked before anything is sent
    await customer.getByRole('button', { name: 'Submit' }).click();
    await customer.getByText('This field is required').waitFor();
    expect(customer.url()).toContain('/c/');
    await police.fill('PR-2026-1');
    await customer.getByRole('button', { name: 'Submit' }).click();
    await customer.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(errors).toEqual([]);
    // the link is spent
    await customer.goto(`${server.url}${new URL(link).pathname}`);
    await customer.getByRole('heading', { name: 'This link has already been used' }).waitFor();
    await context.close();
  });

  it('the submission shows with a column per field and its detail, and exports as CSV', async () => {
    const formId = formUrl.split('/').pop()!;
    await page.goto(`${server.url}/e-form/submissions?form=${formId}`);
    const table = page.getByRole('table', { name: 'Submissions' });
    await table.waitFor();
    await table.getByRole('columnheader', { name: 'Police report number' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: 'PR-2026-1' });
    await row.getByText('Submitted').waitFor();
    await row.getByText('CASE-9').waitFor();
    await expectAccessible(page);
    await row.getByRole('button', { name: /Open submission/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The customer submitted the form').waitFor();
    await dialog.getByText('Theft').waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Export CSV' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('dialog', { name: 'Export submissions' }).getByRole('button', { name: 'Export with answers' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^e-form-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('Police report number');
    expect(csv).toContain('PR-2026-1');
    expect(csv).toContain('CASE-9');
  });

  it('the dashboard shows the funnel and the forms list counts the submission', async () => {
    await page.goto(`${server.url}/e-form`);
    // the demo history is there too: the funnel counts at least this submission
    await page.getByTestId('funnel-sent').waitFor();
    expect(
      Number(
        (await page.getByTestId('funnel-submitted').locator('.eform-funnel-value').textContent())!
          .split(' ')[0]!
          .replace(/,/g, ''),
      ),
    ).toBeGreaterThanOrEqual(1);
    await page.goto(`${server.url}/e-form/forms`);
    const row = page.getByRole('row').filter({ hasText: 'Claim E2E' });
    await row.getByRole('link', { name: '1' }).waitFor();
  });
});
