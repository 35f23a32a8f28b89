import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { makePdf } from '../support/pdfs';
import { translate } from '../../api/customer-pages/i18n/index';
import type { SigField, SigRequest, SigRequestFiles, SigVersion } from '../../api/contract/apps/document-signature';

// Placing Document Signature fields in Chromium, as an admin does: dragged from the palette with
// a mouse and with a finger (360 px), and by keyboard alone. The stored positions are checked,
// and the sealed PDF's date is found (pdftotext -bbox) inside the box the admin dropped it in.

const LETTER = { width: 612, height: 792 };

describe('Placing Document Signature fields', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let token: string;
  const errors: string[] = [];

  const api = async (method: string, p: string, body?: unknown, auth = `Bearer ${token}`) =>
    fetch(`${server.url}/api${p}`, {
      method,
      headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  /** A new page signed in as the admin, on a fresh one-page document's editor. */
  async function editor(
    name: string,
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ page: Page; documentId: string }> {
    const page = await (await browser.newContext(options)).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.links['admin@acme.test']!);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.goto(`${server.url}/document-signature/documents/new`);
    await page
      .getByLabel('PDF file')
      .setInputFiles({ name: 'agreement.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makePdf(1, name)) });
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { name: `${name}: version 1 (draft)` }).waitFor();
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('.sig-editor-canvas');
      return !!c && c.width > 100 && !document.querySelector('.sig-editor-loading');
    });
    return { page, documentId: new URL(page.url()).pathname.split('/')[3]! };
  }

  /** Drags a kind from the palette with the mouse and lets go at a point of the first page (fractions). */
  async function dragFromPalette(page: Page, kind: string, at: { x: number; y: number }) {
    const sheet = (await page.locator('.sig-editor-page').first().boundingBox())!;
    const button = (await page.locator(`.sig-palette-kind[data-kind="${kind}"]`).boundingBox())!;
    await page.mouse.move(button.x + button.width / 2, button.y + button.height / 2);
    await page.mouse.down();
    await page.mouse.move(sheet.x + sheet.width * at.x, sheet.y + sheet.height * at.y, { steps: 10 });
    await page.mouse.up();
  }

  const saved = async (page: Page, documentId: string) => {
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    return ((await (await api('GET', `/document-signature/documents/${documentId}/versions/1`)).json()) as SigVersion).fields;
  };
  const status = (page: Page) => page.locator('.sig-editor p[role="status"]');

  beforeAll(async () => {
    server = await startServer({ linkFor: ['admin@acme.test'] });
    token = new URL(server.links['admin@acme.test']!).searchParams.get('token')!;
    expect((await api('POST', '/document-signature/billing/free-trial', {})).status).toBe(201);
    expect((await api('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    if (process.env.E2E_SHOW_OUTPUT) console.log(server?.output());
    await browser?.close();
    await server?.stop();
  });

  it('a Date field dragged from the palette is stored where it was dropped, and the sealed PDF prints the date there', async () => {
    const { page, documentId } = await editor('Drop agreement', { viewport: { width: 1280, height: 1400 } });
    // no field is on the page until one is dropped
    await expect.poll(() => page.locator('.sig-field').count()).toBe(0);
    await dragFromPalette(page, 'signature', { x: 0.3, y: 0.45 });
    await dragFromPalette(page, 'dateSigned', { x: 0.7, y: 0.62 });
    await expect
      .poll(() => status(page).textContent())
      .toMatch(/^Date signed placed on page 1, 60% from the left, 60(\.5)?% from the top/);
    const fields = await saved(page, documentId);
    const date = fields.find((f) => f.kind === 'dateSigned')!;
    // centred on the point let go of, on the half-percent grid: 0.7 - 0.2 / 2, 0.62 - 0.035 / 2
    expect(date.x).toBeCloseTo(0.6, 2);
    expect(Math.abs(date.y - 0.6025)).toBeLessThanOrEqual(0.0051);
    expect(date).toMatchObject({ page: 0, w: 0.2, h: 0.035 });

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Drop agreement: version 1 (published)' }).waitFor();
    const { secretKey } = (await (await api('GET', '/accounts/developer')).json()) as { secretKey: string };
    const phone = '+15550106262';
    const sent = await api(
      'POST',
      '/v1/signatures',
      { documentId, phoneNumber: phone, signerName: 'Mary Somerville' },
      `Bearer ${secretKey}`,
    );
    expect(sent.status).toBe(201);
    const request = (await sent.json()) as SigRequest;
    const outbox = (await (await api('GET', '/dev/sms-outbox')).json()) as { to: string; body: string }[];
    const link = outbox.find((m) => m.to === phone)!.body.match(/\/c\/[A-Za-z0-9_-]{43}/)![0];
    const signature = fields.find((f) => f.kind === 'signature')!;
    const signed = await fetch(`${server.url}${link}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 (E2E placement)' },
      body: new URLSearchParams({ action: 'sign', [`sig_typed_${signature.id}`]: 'Mary Somerville', consent: 'on' }).toString(),
    });
    expect(signed.status).toBe(200);
    // the completion page links the signer's own copy
    const copyLink = (await signed.text()).match(/href="(\/c\/[A-Za-z0-9_-]{43})"/)![1]!;
    await expect
      .poll(
        async () => ((await (await api('GET', `/document-signature/tasks/${request.id}`)).json()) as { status: string }).status,
        { timeout: 30_000 },
      )
      .toBe('completed');
    const files = (await (await api('GET', `/document-signature/signatures/${request.id}/files`)).json()) as SigRequestFiles;
    const sealed = Buffer.from(await (await fetch(`${server.url}${files.signedUrl}`)).arrayBuffer());

    // the signer opens their copy on the phone and downloads the sealed PDF, the same bytes
    const phonePage = await (
      await browser.newContext({ viewport: { width: 400, height: 800 }, acceptDownloads: true })
    ).newPage();
    await phonePage.goto(`${server.url}${copyLink}`);
    await phonePage.getByRole('heading', { name: 'Your signed document' }).waitFor();
    const [download] = await Promise.all([
      phonePage.waitForEvent('download'),
      phonePage.getByRole('link', { name: 'Download Drop agreement (signed PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Drop agreement (signed).pdf');
    expect(fs.readFileSync((await download.path())!).equals(sealed)).toBe(true);
    await phonePage.context().close();

    // the words of page 1 with their boxes, in points from the page's top-left
    const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-', '-'], { input: sealed, encoding: 'utf8' });
    const words = [
      ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    ].map((m) => ({
      x0: Number(m[1]),
      y0: Number(m[2]),
      x1: Number(m[3]),
      y1: Number(m[4]),
      text: m[5]!,
    }));
    // the date is stamped in the signer's language, "November 26, 2026": three words, one box
    const MONTH = /^(January|February|March|April|May|June|July|August|September|October|November|December)$/;
    const at = words.findIndex(
      (w, i) => MONTH.test(w.text) && /^\d{1,2},$/.test(words[i + 1]?.text ?? '') && /^\d{4}$/.test(words[i + 2]?.text ?? ''),
    );
    expect(at, html).toBeGreaterThanOrEqual(0);
    const day = words.slice(at, at + 3);
    const stamped = {
      text: day.map((w) => w.text).join(' '),
      x0: day[0]!.x0,
      x1: day[2]!.x1,
      y0: Math.min(...day.map((w) => w.y0)),
      y1: Math.max(...day.map((w) => w.y1)),
    };
    const inBox = (f: SigField, w: { x0: number; x1: number; y0: number; y1: number }) => {
      const box = {
        left: f.x * LETTER.width,
        right: (f.x + f.w) * LETTER.width,
        top: f.y * LETTER.height,
        bottom: (f.y + f.h) * LETTER.height,
      };
      // a point of slack for the font's ascent and descent
      return w.x0 >= box.left - 1 && w.x1 <= box.right + 1 && w.y0 >= box.top - 1 && w.y1 <= box.bottom + 1;
    };
    expect(inBox(date, stamped), `${JSON.stringify(stamped)} not in ${JSON.stringify(date)}`).toBe(true);
    // and the typed signature sits in its own box, not at the top-left over the text
    const name = words.find((w) => w.text === 'Somerville');
    expect(name && inBox(signature, name), html).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
    // upload, two drags, publish (page images), send, sign and seal: a minute on a loaded machine
  }, 120_000);

  it("a field the sender left unnamed reads in the signer's language on their page; a label the sender chose reads as written", async () => {
    const { page, documentId } = await editor('Label agreement', { viewport: { width: 1280, height: 1400 } });
    await dragFromPalette(page, 'signature', { x: 0.3, y: 0.45 });
    const label = page.getByLabel('Label', { exact: true });
    // a new field carries no label: the box says what signers read instead
    expect(await label.inputValue()).toBe('');
    expect(await label.getAttribute('placeholder')).toBe('Signature');
    await label.fill('Tenant signature');
    await dragFromPalette(page, 'checkbox', { x: 0.3, y: 0.7 });
    await page.getByText('Left empty, signers read "Checkbox" in their own language.').waitFor();
    const fields = await saved(page, documentId);
    expect(fields.map((f) => [f.kind, f.label])).toEqual([
      ['signature', 'Tenant signature'],
      ['checkbox', ''],
    ]);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Label agreement: version 1 (published)' }).waitFor();
    const { secretKey } = (await (await api('GET', '/accounts/developer')).json()) as { secretKey: string };
    const phone = '+15550106363';
    expect(
      (
        await api(
          'POST',
          '/v1/signatures',
          { documentId, phoneNumber: phone, signerName: 'Layla Haddad', locale: 'ar' },
          `Bearer ${secretKey}`,
        )
      ).status,
    ).toBe(201);
    const outbox = (await (await api('GET', '/dev/sms-outbox')).json()) as { to: string; body: string }[];
    const link = outbox.find((m) => m.to === phone)!.body.match(/\/c\/[A-Za-z0-9_-]{43}/)![0];
    const signer = await (await browser.newContext({ viewport: { width: 400, height: 800 } })).newPage();
    await signer.goto(`${server.url}${link}`);
    await signer.locator('html[lang="ar"]').waitFor();
    await signer.getByText(translate('ar', 'sig.kind.checkbox'), { exact: false }).first().waitFor();
    await signer.getByText('Tenant signature', { exact: false }).first().waitFor();
    expect(await signer.getByText('Checkbox', { exact: false }).count()).toBe(0);
    await signer.context().close();
    await page.context().close();
  }, 120_000);

  it('by keyboard alone: choose a kind, move its outline with the arrows, Enter places it, arrows move it, Delete removes it, each announced', async () => {
    const { page, documentId } = await editor('Keyboard agreement');
    await page.locator('.sig-palette-kind[data-kind="dateSigned"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).textContent()).toMatch(/^Date signed chosen: page 1, .* Enter\. Escape cancels\.$/);
    const ghost = page.locator('.sig-ghost');
    await expect.poll(() => ghost.evaluate((el) => el === document.activeElement)).toBe(true);
    const start = await ghost.evaluate((el) => ({
      x: parseFloat((el as HTMLElement).style.left) / 100,
      y: parseFloat((el as HTMLElement).style.top) / 100,
    }));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => status(page).textContent()).toMatch(/^Date signed: page 1, /);
    // the editor with a kind chosen and its outline focused passes axe
    const violations = await axeViolations(page, { include: '.sig-editor' });
    const found = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(found, found.join('\n')).toEqual([]);
    await page.locator('.sig-ghost').focus();
    await page.keyboard.press('Enter');
    const date = page.locator('.sig-field-dateSigned');
    await date.waitFor();
    await expect.poll(() => status(page).textContent()).toMatch(/^Date signed placed on page 1, .* Delete removes it\.$/);
    await expect.poll(() => date.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await date.getAttribute('aria-label')).toMatch(/^Date signed \(Date signed, required\), page 1, /);
    // a placed field: Shift + arrow moves it a big step, and the new place is said
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => status(page).textContent()).toMatch(/^Date signed: page 1, /);
    const [stored] = await saved(page, documentId);
    expect(stored!.x).toBeCloseTo(start.x - 0.01 + 0.05, 3);
    expect(stored!.y).toBeCloseTo(start.y + 0.05, 3);

    // Escape puts a chosen kind down without placing it, focus back on its palette button
    await page.locator('.sig-palette-kind[data-kind="text"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => ghost.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => status(page).textContent()).toBe('Text not placed');
    await expect.poll(() => ghost.count()).toBe(0);
    await expect.poll(() => page.locator('.sig-field').count()).toBe(1);
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.kind)).toBe('text');

    // Delete removes the focused field
    await date.focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => status(page).textContent()).toBe('Date signed removed');
    await expect.poll(() => page.locator('.sig-field').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('at 360 px the palette sits above the page and folds away; a finger drags a field onto the page, or chooses one and taps', async () => {
    const { page, documentId } = await editor('Phone agreement', {
      viewport: { width: 360, height: 800 },
      isMobile: true,
      hasTouch: true,
    });
    const palette = (await page.locator('.sig-palette').boundingBox())!;
    const sheet = page.locator('.sig-editor-page').first();
    expect(palette.y + palette.height).toBeLessThanOrEqual((await sheet.boundingBox())!.y);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);

    // a touch drag: the finger goes down on the palette's Signature and lifts over the page
    // the page scrolled up under the palette, which stays in view (sticky), clear of the header
    await page.evaluate(() => window.scrollBy(0, document.querySelector('.sig-editor-page')!.getBoundingClientRect().top - 150));
    const header = (await page.locator('.app-header').boundingBox())!;
    await expect.poll(async () => (await page.locator('.sig-palette').boundingBox())!.y).toBeCloseTo(header.y + header.height, 0);
    const button = (await page.locator('.sig-palette-kind[data-kind="signature"]').boundingBox())!;
    expect(
      await page.evaluate(
        ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.sig-palette-kind[data-kind="signature"]'),
        [button.x + button.width / 2, button.y + button.height / 2],
      ),
    ).toBe(true);
    let s = (await sheet.boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
    const from = { x: button.x + button.width / 2, y: button.y + button.height / 2 };
    const to = { x: s.x + s.width * 0.5, y: s.y + s.height * 0.4 };
    const stuck = (await page.locator('.sig-palette').boundingBox())!;
    expect(to.y).toBeGreaterThan(stuck.y + stuck.height);
    expect(to.y).toBeLessThan(800);
    await touch('touchStart', from.x, from.y);
    for (let i = 1; i <= 10; i++)
      await touch('touchMove', from.x + ((to.x - from.x) * i) / 10, from.y + ((to.y - from.y) * i) / 10);
    await touch('touchEnd', to.x, to.y);
    await page.locator('.sig-field-signature').waitFor();

    // a tap chooses Initials, a tap on the page puts them there
    await page.locator('.sig-palette-kind[data-kind="initials"]').tap();
    await page.locator('.sig-ghost').waitFor();
    expect(await page.locator('.sig-palette-kind[data-kind="initials"]').getAttribute('aria-pressed')).toBe('true');
    s = (await sheet.boundingBox())!;
    await page.touchscreen.tap(s.x + s.width * 0.8, s.y + s.height * 0.5);
    await page.locator('.sig-field-initials').waitFor();
    const fields = await saved(page, documentId);
    const signature = fields.find((f) => f.kind === 'signature')!;
    const initials = fields.find((f) => f.kind === 'initials')!;
    expect(signature.x + signature.w / 2).toBeCloseTo(0.5, 1);
    expect(signature.y + signature.h / 2).toBeCloseTo(0.4, 1);
    expect(initials.x + initials.w / 2).toBeCloseTo(0.8, 1);
    expect(initials.y + initials.h / 2).toBeCloseTo(0.5, 1);

    // the palette folds away
    await page.locator('.sig-palette > summary').tap();
    await expect.poll(() => page.locator('.sig-palette-kind').first().isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
