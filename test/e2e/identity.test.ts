import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeViolations } from './axe';
import { launchBrowser, startServer } from './harness';
import { startDnsServer, type DnsServer } from '../support/dns-server';

// Signing in as a person does: the console's buttons, the development identity provider's page,
// back to the console; and the Single Sign-On screen an admin uses.

describe('sign-in and single sign-on in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  // acme.test's DNS on loopback: where the admin publishes the SSO domain proof
  let dns: DnsServer;

  beforeAll(async () => {
    dns = await startDnsServer();
    server = await startServer({ linkFor: ['owner@acme.test'], env: { DNS_SERVERS: dns.address } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
  });

  it('the server says the development identity provider is mounted', () => {
    expect(server.output()).toContain(`Development identity provider mounted at ${server.url}/dev-idp`);
  });

  it('signing in with the Google-type button through the development provider opens home', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.getByRole('heading', { name: 'Development identity provider' }).waitFor();
    await page.getByRole('button', { name: /Olivia Owens/ }).click();
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.close();
  });

  it('signing in with the Microsoft-type button lands on home with the session', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
    await page.getByLabel('E-mail address').fill('admin@acme.test');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    expect(page.url()).not.toContain('token=');
    await page.close();
  });

  it('a company that already has an account is told to ask its administrator', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.getByLabel('E-mail address').fill('newcomer@acme.test');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .getByText('An account already exists for your company. Please contact your administrator to get access.')
      .waitFor();
    await page.close();
  });

  it('an expired session shows the expired message on sign-in', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?expired=true`);
    await page.getByText('Your session has expired. Please sign in again.').waitFor();
    await page.close();
  });

  it('sign-up keeps the provider buttons disabled until the terms are accepted', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/sign-up`);
    const google = page.getByRole('button', { name: 'Sign up with Google' });
    expect(await google.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign up with Microsoft' }).isDisabled()).toBe(true);
    await page.getByRole('checkbox').check();
    expect(await google.isEnabled()).toBe(true);
    await page.close();
  });

  it('SSO for an unconfigured domain says so on the email field', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByLabel('Work email').fill('someone@nowhere-sso.test');
    await page.getByRole('button', { name: 'Sign in using SSO' }).click();
    await page.getByText('SSO is not configured for this email address').waitFor();
    await page.close();
  });

  it('an admin connects an OpenID Connect provider, the others are disabled, then disconnects it', async () => {
    // a context of its own: axe opens a page beside it
    const page = await (await browser.newContext()).newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await page.goto(`${server.url}/settings/single-sign-on`);
    await page.getByRole('button', { name: 'Connect OpenID Connect' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Discovery URL is required').waitFor();
    await dialog.getByText('Client Secret is required').waitFor();
    const printed = server.output().match(/Discovery URL (\S+), Client ID (\S+), Client Secret (\S+)\./)!;
    await dialog.getByLabel('Discovery URL').fill(printed[1]!);
    await dialog.getByLabel('Domain').fill('acme.test');
    await dialog.getByLabel('Client ID').fill(printed[2]!);
    await dialog.getByLabel('Client Secret').fill(printed[3]!);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('OpenID Connect has been configured').waitFor();
    const oidc = page.locator('[data-integration="oidc"]');
    await oidc.getByText('Connected').waitFor();
    await oidc.getByText(`${server.url}/dev-idp`, { exact: true }).waitFor();
    // connected first, the other two disabled with the reason
    expect(await page.locator('[data-integration]').first().getAttribute('data-integration')).toBe('oidc');
    for (const id of ['azure', 'okta']) {
      const card = page.locator(`[data-integration="${id}"]`);
      await card.getByText('Disable the current provider to enable this one').waitFor();
      expect(await card.getByRole('button').count()).toBe(0);
    }

    // until the domain is proven nobody is sent to the provider; the screen shows the TXT record
    const proof = page.getByTestId('sso-domain-proof');
    await proof.getByText('Not verified').waitFor();
    await proof.getByRole('button', { name: 'Verify' }).click();
    await proof
      .getByText(/No TXT record with this account's verification value was found at _switchboard-challenge\.acme\.test/)
      .waitFor();
    // the card with its inline error is axe-clean and fits a 360 px side panel
    const axe = { violations: await axeViolations(page, { include: '[data-testid="sso-domain-proof"]' }) };
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 360, height: 800 });
    expect(
      await proof.evaluate((card) => card.scrollWidth <= card.clientWidth && document.documentElement.scrollWidth <= 360),
    ).toBe(true);
    if (viewport) await page.setViewportSize(viewport);
    const value = (await proof.locator('code').nth(1).textContent())!;
    dns.records.set('_switchboard-challenge.acme.test', { txt: [value] });
    await proof.getByRole('button', { name: 'Verify' }).click();
    await proof.getByText('Verified', { exact: true }).waitFor();

    // SSO sign-in works in another browser with the provider now configured
    const other = await browser.newContext();
    const visitor = await other.newPage();
    await visitor.goto(server.url);
    await visitor.getByLabel('Work email').fill('admin@acme.test');
    await visitor.getByRole('button', { name: 'Sign in using SSO' }).click();
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visitor.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await other.close();

    await oidc.getByRole('button', { name: 'Disconnect OpenID Connect' }).click();
    await page
      .getByRole('dialog', { name: 'Disconnect OpenID Connect?' })
      .getByRole('button', { name: 'Disconnect', exact: true })
      .click();
    await page.getByText('OpenID Connect has been disconnected').waitFor();
    for (const name of ['Connect Azure AD', 'Connect Okta', 'Connect OpenID Connect'])
      await page.getByRole('button', { name }).waitFor();
    await page.context().close();
  });
});
