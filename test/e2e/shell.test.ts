import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';

describe('console shell in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ linkFor: ['owner@acme.test', 'supervisor@acme.test'] });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a sign-in link opens the console with a card per app', async () => {
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start Free Trial' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: /Launch app/ }).count()).toBeGreaterThan(0);
    // the token left the address bar
    expect(page.url()).not.toContain('token=');
  });

  it('unreleased identity verification is not offered to a customer account', async () => {
    expect(await page.getByRole('heading', { name: 'Identity Verification' }).count()).toBe(0);
  });

  it('starting a free trial opens the app with its tab bar', async () => {
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Document Signature' }) });
    await card.getByRole('button', { name: 'Start Free Trial' }).click();
    await page.waitForURL(/\/document-signature/);
    const tabs = page.getByRole('navigation', { name: 'Document Signature sections' });
    await tabs.getByRole('link', { name: 'Signatures' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Documents' }).count()).toBe(1);
  });

  it('the session survives a reload', async () => {
    await page.reload();
    await page.getByRole('link', { name: 'Signatures' }).first().waitFor();
  });

  it('with the API unreachable, a reload keeps the session and offers Retry', async () => {
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('switchboard.token'))).toBeTruthy();
    await page.unroute('**/api/**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('link', { name: 'Signatures' }).first().waitFor();
  });

  it('an unknown path while signed out goes back to sign-in', async () => {
    const fresh = await browser.newPage();
    await fresh.goto(`${server.url}/settings/branding`);
    await fresh.waitForURL(`${server.url}/`);
    await fresh.getByRole('button', { name: 'Sign in using SSO' }).waitFor();
    await fresh.close();
  });

  it('a supervisor sees no Configuration tab and no header tools', async () => {
    const sup = await browser.newPage();
    await sup.goto(server.links['supervisor@acme.test']!);
    await sup.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await sup.goto(`${server.url}/one-time-passcode`);
    await sup.getByRole('link', { name: 'Authentications' }).waitFor();
    expect(await sup.getByRole('link', { name: 'Configuration' }).count()).toBe(0);
    expect(await sup.getByRole('button', { name: /search/i }).count()).toBe(0);
    await sup.close();
  });

  it.each(['/', '/zoom/', '/webex/'])('the %s entry references an SVG favicon that is served as image/svg+xml', async (entry) => {
    const html = await (await fetch(`${server.url}${entry}`)).text();
    const href = html.match(/<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/)?.[1];
    expect(href).toBe(`${entry}favicon.svg`);
    const icon = await fetch(`${server.url}${href}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it('each page has its own browser tab title', async () => {
    await page.goto(`${server.url}/settings/branding`);
    await page.getByRole('heading', { name: 'Branding', level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === 'Branding · Settings · Switchboard');
    await page.goto(`${server.url}/support`);
    await page.getByRole('heading', { name: 'Support', level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === 'Support · Switchboard');
  });

  it('signing out ends the session on the server: the token it held no longer answers', async () => {
    const link = server.links['owner@acme.test']!;
    const token = new URL(link).searchParams.get('token')!;
    const own = await browser.newPage();
    await own.goto(link);
    await own.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await own.getByRole('button', { name: 'Settings menu' }).click();
    await own.getByRole('button', { name: 'Sign out' }).click();
    await own.getByRole('heading', { name: 'Sign in' }).waitFor();
    const res = await fetch(`${server.url}/api/admins/bootstrap`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    await own.close();
  });
});
