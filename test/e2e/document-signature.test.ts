import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, pickChoice, startServer } from './harness';
import { makePdf } from '../support/pdfs';
import type { SigRequestFiles, SigVersion } from '../../api/contract/apps/document-signature';

// Document Signature end to end on the built server: an admin uploads a PDF made here with
// pdf-lib, places fields in the editor (pdf.js), publishes, sends it from the dashboard; the
// customer signs on their phone (320 px, axe-checked) by drawing; the console shows it completed
// and the sealed PDF carries a valid signature (pdfsig) and the stamped name (pdftotext).

const PHONE = '+15550107777';
const SIGNER = 'Ada Lovelace';

describe('Document Signature in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let token: string;
  let documentId: string;
  let requestId: string;
  const consoleErrors: string[] = [];

  const api = async (method: string, p: string, body?: unknown) =>
    fetch(`${server.url}/api${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  beforeAll(async () => {
    server = await startServer({ linkFor: ['admin@acme.test'] });
    token = new URL(server.links['admin@acme.test']!).searchParams.get('token')!;
    expect((await api('POST', '/document-signature/billing/free-trial', {})).status).toBe(201);
    expect((await api('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(server.links['admin@acme.test']!);
    await page
      .getByRole('heading', { name: 'One-Time Passcode' })
      .or(page.getByRole('heading', { level: 1 }))
      .first()
      .waitFor();
  });
  afterAll(async () => {
    if (process.env.E2E_SHOW_OUTPUT) console.log(server?.output());
    await browser?.close();
    await server?.stop();
  });

  it('an admin uploads a PDF, drags a signature from the palette, places a name by keyboard and publishes it', async () => {
    await page.goto(`${server.url}/document-signature/documents/new`);
    await page.getByLabel('PDF file').setInputFiles({
      name: 'loan-agreement.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await makePdf(2, 'Loan agreement')),
    });
    await page.getByLabel('Name', { exact: true }).fill('Loan agreement');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { name: 'Loan agreement: version 1 (draft)' }).waitFor();
    documentId = new URL(page.url()).pathname.split('/')[3]!;
    // pdf.js drew the first page (its own files, imported when the editor opened)
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('.sig-editor-canvas');
      return !!c && c.width > 100 && !document.querySelector('.sig-editor-loading');
    });

    // the Signature dragged from the palette onto the page, then moved 60 px right and 120 px down
    const sheet = (await page.locator('.sig-editor-page').first().boundingBox())!;
    const kind = (await page.locator('.sig-palette-kind[data-kind="signature"]').boundingBox())!;
    await page.mouse.move(kind.x + kind.width / 2, kind.y + kind.height / 2);
    await page.mouse.down();
    await page.mouse.move(sheet.x + sheet.width * 0.3, sheet.y + 150, { steps: 8 });
    await page.mouse.up();
    const signature = page.locator('.sig-field-signature');
    await signature.waitFor();
    const box = (await signature.boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 70, box.y + 130, { steps: 5 });
    await page.mouse.up();
    const moved = (await signature.boundingBox())!;
    expect(moved.x - box.x).toBeGreaterThan(50);
    expect(moved.y - box.y).toBeGreaterThan(100);

    // the name placed by keyboard: chosen in the palette, moved down, placed with Enter, then resized
    await page.locator('.sig-palette-kind[data-kind="fullName"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('sig-ghost'))).toBe(true);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Enter');
    const name = page.locator('.sig-field-fullName');
    await name.waitFor();
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    const before = (await name.boundingBox())!;
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Alt+ArrowRight');
    const after = (await name.boundingBox())!;
    expect(after.y).toBeGreaterThan(before.y + 10);
    expect(after.width).toBeGreaterThan(before.width);
    await page.getByLabel('Label').fill('Your full name');

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Loan agreement: version 1 (published)' }).waitFor();
    const version = (await (await api('GET', `/document-signature/documents/${documentId}/versions/1`)).json()) as SigVersion;
    expect(version.hasPageImages).toBe(true);
    // the signature was not named: its signers read "Signature" in their own language
    expect(version.fields.map((f) => [f.kind, f.label])).toEqual([
      ['signature', ''],
      ['fullName', 'Your full name'],
    ]);
    expect(version.fields[1]!.y).toBeGreaterThan(0.1);
    expect(consoleErrors).toEqual([]);
  });

  it('an agent sends it for signature from the dashboard', async () => {
    await page.goto(`${server.url}/document-signature`);
    const send = page.getByRole('form', { name: 'Send for signature' });
    await pickChoice(send, 'Document', 'loan', 'Loan agreement');
    await send.getByLabel("Signer's full name").fill(SIGNER);
    await send.getByLabel('Phone number').fill(PHONE);
    await send.getByRole('button', { name: 'Send for signature' }).click();
    await page.getByTestId('action-status').getByText('Sent').waitFor();
  });

  it('the customer signs on a 320 px phone by drawing, and the page passes axe', async () => {
    const outbox = (await (await api('GET', '/dev/sms-outbox')).json()) as { to: string; body: string }[];
    const link = outbox.find((m) => m.to === PHONE)!.body.match(/\/c\/[A-Za-z0-9_-]{43}/)![0];
    const phone = await (
      await browser.newContext({ viewport: { width: 320, height: 640 }, userAgent: 'Mozilla/5.0 (iPhone) E2E signer' })
    ).newPage();
    const errors: string[] = [];
    phone.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
    // a browser asks any page for /favicon.ico; every other answer must be found
    phone.on(
      'response',
      (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`),
    );
    await phone.goto(`${server.url}${link}`);
    await phone.getByRole('heading', { name: 'Sign: Loan agreement' }).waitFor({ timeout: 10_000 });
    // the page images rendered at publish load (img-src 'self' under the page's CSP)
    await phone.waitForFunction(
      () =>
        [...document.querySelectorAll('img')]
          .filter((i) => i.alt.startsWith('Page'))
          .every((i) => i.complete && i.naturalWidth > 0),
      undefined,
      { timeout: 10_000 },
    );
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    const violations = await axeViolations(phone);
    const found = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(found, found.join('\n')).toEqual([]);

    await expect.poll(async () => phone.getByLabel(/\d\. Your full name/).inputValue({ timeout: 5_000 })).toBe(SIGNER);
    const canvas = phone.locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    const c = (await canvas.boundingBox())!;
    await phone.mouse.move(c.x + 20, c.y + 90);
    await phone.mouse.down();
    for (const [dx, dy] of [
      [60, 40],
      [100, 100],
      [160, 30],
      [220, 90],
      [260, 50],
    ] as const)
      await phone.mouse.move(c.x + dx, c.y + dy, { steps: 4 });
    await phone.mouse.up();
    await phone.getByLabel(/I agree that my electronic signature/).check({ timeout: 5_000 });
    await phone.getByRole('button', { name: 'Sign', exact: true }).click({ timeout: 5_000 });
    await phone.getByRole('heading', { name: 'Signed. Thank you' }).waitFor({ timeout: 10_000 });
    expect(errors, errors.join('\n')).toEqual([]);
    await phone.close();
  });

  it('the console shows it completed, and the sealed PDF has a valid signature and the stamped name', async () => {
    const list = (await (await api('GET', '/document-signature/tasks')).json()) as { id: string; status: string }[];
    requestId = list[0]!.id;
    // sealed in the background right after signing (the 30-second job is the fallback); with
    // three browser files at once the seal took over the 10 s this used to allow
    await expect
      .poll(
        async () => ((await (await api('GET', `/document-signature/tasks/${requestId}`)).json()) as { status: string }).status,
        { timeout: 25_000 },
      )
      .toBe('completed');
    await page.goto(`${server.url}/document-signature/signatures?session=${requestId}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('link', { name: 'Download signed PDF' }).waitFor();
    // no time-stamping authority is configured here, so the seal is PAdES B-B
    await dialog.getByText(/^Sealed \(PAdES B-B\): certificate of completion added and the PDF signed by /).waitFor();
    // a completed request says when it was signed, never when its (spent) link "expires"
    expect(await dialog.textContent()).toMatch(/Signed [^;]+; the sealed PDF is ready\./);
    expect(await dialog.textContent()).not.toMatch(/expire/i);

    const files = (await (await api('GET', `/document-signature/signatures/${requestId}/files`)).json()) as SigRequestFiles;
    const sealed = Buffer.from(await (await fetch(`${server.url}${files.signedUrl}`)).arrayBuffer());
    const file = path.join(os.tmpdir(), `e2e-sealed-${process.pid}.pdf`);
    fs.writeFileSync(file, sealed);
    try {
      expect(execFileSync('pdfsig', [file], { encoding: 'utf8' })).toContain('Signature is Valid');
    } finally {
      fs.rmSync(file, { force: true });
    }
    const text = execFileSync('pdftotext', ['-', '-'], { input: sealed, encoding: 'utf8' });
    expect(text).toContain(SIGNER);
    expect(text).toContain('Certificate of completion');
    expect(text).toContain('E2E signer');
  });
});
