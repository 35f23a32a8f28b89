import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, settle, startServer } from './harness';

// The eForm builder as an admin meets it: opening New form stores nothing until Save,
// nothing is called wrong before the admin did anything, a condition starts on the question just
// above with its options to pick from, a title another form has is flagged, drafts are deleted and
// retired forms archived after a confirmation, and the submissions export says when it has no answers.

type Summary = { id: string; title: string; status: string; archivedAt: string | null };

async function expectAccessible(page: Page) {
  await settle(page);
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('eForm builder in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let token = '';

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & Summary[] };
  };
  const forms = async () => (await api('GET', '/e-form/forms')).body as Summary[];

  beforeAll(async () => {
    server = await startServer({ linkFor: ['owner@acme.test'] });
    token = new URL(server.links['owner@acme.test']!).searchParams.get('token')!;
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

  it('opening New form and leaving stores no form, and no problem is shown before the admin does anything', async () => {
    const before = (await forms()).length;
    await page.goto(`${server.url}/e-form/forms/new`);
    await page.getByText('New · not saved yet').waitFor();
    await settle(page);
    // nothing is saved yet, so nothing beside the badge says "All changes saved"
    expect(await page.getByTestId('save-state').textContent()).toBe('');
    expect(await page.getByText('Add at least one field').count()).toBe(0);
    expect(await page.locator('.field-error, .notice-error').count()).toBe(0);
    await page.goto(`${server.url}/e-form/forms`);
    await page.getByRole('table', { name: 'Forms' }).waitFor();
    expect((await forms()).length).toBe(before);
    expect(await page.getByRole('link', { name: 'Untitled form' }).count()).toBe(0);
  });

  it('Publish on an untouched form says what is missing and moves focus to it, still storing nothing', async () => {
    const before = (await forms()).length;
    await page.goto(`${server.url}/e-form/forms/new`);
    await page.getByRole('button', { name: 'Publish' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Add at least one field' });
    await problem.waitFor();
    await expect.poll(() => problem.evaluate((el) => el === document.activeElement)).toBe(true);
    // the button keeps its label: nothing failed that the page does not already say
    await expect.poll(() => page.getByRole('button', { name: 'Publish' }).textContent()).toBe('Publish');
    expect((await forms()).length).toBe(before);
  });

  it('a form is created when its author presses Save, once, with the name they gave; editing goes on in the same builder', async () => {
    const before = (await forms()).length;
    await page.goto(`${server.url}/e-form/forms/new`);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('Callback request E2E');
    await page.getByTestId('save-state').getByText('Not saved yet').waitFor();
    await settle(page);
    // typing is not saving: no form exists yet, the address is still forms/new
    expect((await forms()).length).toBe(before);
    expect(new URL(page.url()).pathname).toBe('/e-form/forms/new');
    await page.getByRole('button', { name: 'Save', exact: true }).dblclick();
    await page.waitForURL(/\/e-form\/forms\/[0-9a-f-]{36}$/);
    await page.getByText('"Callback request E2E" saved').waitFor();
    await title.click();
    await page.keyboard.type(' form');
    await page.getByTestId('save-state').getByText('All changes saved').waitFor();
    const after = await forms();
    expect(after.length).toBe(before + 1);
    expect(after.filter((f) => f.title.startsWith('Callback request E2E')).map((f) => f.title)).toEqual([
      'Callback request E2E form',
    ]);
  });

  it('a title typed and left without Save stores no form', async () => {
    const before = (await forms()).length;
    await page.goto(`${server.url}/e-form/forms/new`);
    await page.getByLabel('Title', { exact: true }).fill('Left at once');
    await page.getByRole('link', { name: 'Forms', exact: true }).first().click();
    await page.waitForURL(/\/e-form\/forms$/);
    await page.getByRole('table', { name: 'Forms' }).waitFor();
    await settle(page);
    expect((await forms()).filter((f) => f.title === 'Left at once')).toEqual([]);
    expect((await forms()).length).toBe(before);
  });

  it('Save with the name of another form asks first: cancelling stores nothing, Save anyway stores one', async () => {
    const before = (await forms()).length;
    await page.goto(`${server.url}/e-form/forms/new`);
    // the form the first Save made above; case and spaces aside, the same name
    await page.getByLabel('Title', { exact: true }).fill('callback request E2E form ');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Another form is already called "Callback request E2E form"').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await settle(page);
    expect((await forms()).length).toBe(before);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save anyway' }).click();
    await page.waitForURL(/\/e-form\/forms\/[0-9a-f-]{36}$/);
    expect((await forms()).length).toBe(before + 1);
  });

  it('a condition starts on the question just above, and a choice question’s value is picked from its options; the preview then shows the field', async () => {
    await page.goto(`${server.url}/e-form/forms/new`);
    const editor = page.getByRole('group', { name: /^Settings of/ });
    await page.getByRole('button', { name: 'Single choice' }).click();
    await editor.getByLabel('Label', { exact: true }).fill('What happened');
    await editor.getByLabel('Options').fill('Theft\nDamage');
    await page.getByRole('button', { name: 'Short text' }).click();
    await editor.getByLabel('Label', { exact: true }).fill('Police report number');
    await editor.getByRole('button', { name: 'Add a condition' }).click();

    const answerTo = editor.getByLabel('Rule 1: answer to');
    expect(await answerTo.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]!.textContent)).toBe('What happened');
    const value = editor.getByLabel('Value');
    expect(await value.evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await value.locator('option').allTextContents()).toEqual(['Theft', 'Damage']);
    expect(await value.inputValue()).toBe('Theft');
    // hidden fields are still there to choose, after the questions
    expect(
      await answerTo.locator('optgroup').evaluateAll((groups) => groups.map((g) => (g as HTMLOptGroupElement).label)),
    ).toEqual(['Questions above', 'Hidden fields (filled from the request)']);

    await value.selectOption('Damage');
    const preview = page.getByRole('form', { name: 'Preview' });
    await preview.getByLabel('Theft').check();
    expect(await preview.getByLabel('Police report number').count()).toBe(0);
    await preview.getByLabel('Damage').check();
    await preview.getByLabel('Police report number').waitFor();
  });

  it('a title another form has is flagged beside the title', async () => {
    await page.goto(`${server.url}/e-form/forms/new`);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('damage claim ');
    const warning = page.getByTestId('title-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Another form is already called "Damage claim"');
    // the title field says it to assistive technology too
    const described = await title.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described!.split(' ')[0]}"]`).textContent()).toContain('Another form is already called');
    await expectAccessible(page);
    await title.fill('Damage claim (motor)');
    await warning.waitFor({ state: 'detached' });
  });

  it('a draft is deleted from Forms after confirming, with an audit entry', async () => {
    const draft = (await api('POST', '/e-form/forms', { definition: { title: 'Draft to delete', hiddenFields: [], fields: [] } }))
      .body as unknown as Summary;
    await page.goto(`${server.url}/e-form/forms`);
    const row = page.getByRole('row').filter({ hasText: 'Draft to delete' });
    await row.getByRole('button', { name: 'Delete Draft to delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the draft "Draft to delete"?' });
    await dialog.getByText('It was never published').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await forms()).some((f) => f.id === draft.id)).toBe(false);
    const audit = (await api('GET', '/audit-log')).body as unknown as { event: string; description: string }[];
    expect(audit.some((e) => e.event === 'form.deleted' && e.description.includes('Draft to delete'))).toBe(true);
  });

  it('a closed form is archived after confirming: it leaves Forms, its submissions stay, and it can be restored', async () => {
    const damage = (await forms()).find((f) => f.title === 'Damage claim')!;
    expect((await api('POST', `/e-form/forms/${damage.id}/close`)).status).toBe(200);
    await page.goto(`${server.url}/e-form/forms`);
    // the title test left a draft "Damage claim (motor)": rows are told apart by the exact link
    const damageRow = (table: string) =>
      page
        .getByRole('table', { name: table })
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: 'Damage claim', exact: true }) });
    const row = damageRow('Forms');
    await row.getByRole('button', { name: 'Archive Damage claim' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive "Damage claim"?' });
    await dialog.getByText(/submissions? stays? in Submissions/).waitFor();
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Show archived forms (1)' }).click();
    const archived = damageRow('Archived forms');
    await archived.getByText('Archived').waitFor();
    await expectAccessible(page);
    // its submissions are still one filter away
    await page.goto(`${server.url}/e-form/submissions?form=${damage.id}`);
    const submissions = page.getByRole('table', { name: 'Submissions' });
    await submissions.getByRole('columnheader', { name: 'What happened', exact: true }).waitFor();
    expect(await submissions.getByRole('button', { name: /Open submission/ }).count()).toBeGreaterThan(0);
    expect(
      await page
        .getByRole('form', { name: 'Filters' })
        .getByLabel('Form')
        .locator('optgroup[label="Archived forms"] option')
        .allTextContents(),
    ).toEqual(['Damage claim']);
    await page.goto(`${server.url}/e-form/forms`);
    await page.getByRole('button', { name: 'Show archived forms (1)' }).click();
    await page.getByRole('button', { name: 'Restore Damage claim' }).click();
    await page.getByRole('dialog', { name: 'Restore "Damage claim"?' }).getByRole('button', { name: 'Restore' }).click();
    await damageRow('Forms').waitFor();
  });

  it('the submissions export says when the file has no answers, and with a form chosen exports its answers', async () => {
    await page.goto(`${server.url}/e-form/submissions`);
    await page.getByRole('table', { name: 'Submissions' }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export submissions' });
    const explanation = dialog.getByTestId('export-explanation');
    expect(await explanation.textContent()).toContain('no answers');
    await expectAccessible(page);
    const [plain] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export without answers' }).click(),
    ]);
    const plainHeader = fs.readFileSync((await plain.path())!, 'utf8').split('\n')[0]!;
    expect(plainHeader).not.toContain('Full name');

    await page.getByRole('button', { name: 'Export CSV' }).click();
    await dialog.getByLabel('Form').selectOption({ label: 'Change of address' });
    expect(await explanation.textContent()).toContain('One row per request of "Change of address"');
    const [withAnswers] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export with answers' }).click(),
    ]);
    const csv = fs.readFileSync((await withAnswers.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('Full name');
    expect(csv.split('\n')[0]).toContain('Postcode');
    await dialog.waitFor({ state: 'detached' });
  });

  it('"Answer contains" under 3 characters says so under the field instead of searching', async () => {
    await page.goto(`${server.url}/e-form/submissions`);
    const field = page.getByLabel('Answer contains');
    await field.fill('ab');
    await page.getByText('Type at least 3 characters to search the answers').waitFor();
    await field.fill('abc');
    await page.getByText('Type at least 3 characters to search the answers').waitFor({ state: 'detached' });
  });
});
