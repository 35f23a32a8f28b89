import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer, visit } from './harness';
import { settle } from './harness';
import { encryptZoomContext, startZoomPeer, zoomServerEnv, type ZoomPeer } from '../fixtures/host-peers';

// Every main screen of the console, checked by axe-core in Chromium against WCAG 2.0/2.1 level A
// and AA. A failure lists each violation with the elements it was found on.

/** Runs axe on the page as it is now and fails with the list of violations, if any. */
async function expectNoViolations(page: Page) {
  // check the screen with its data, not a loading state: the API calls are answered and no
  // spinner is left (a spinner only appears after a delay, so the network is waited for too)
  await settle(page);
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], .spinner'), undefined, { timeout: 15_000 })
    .catch(() => {});
  const violations = await axeViolations(page);
  expect(
    violations.map((v) => v.id),
    `WCAG A/AA violations:\n${describeViolations(violations)}`,
  ).toEqual([]);
}

/** axe needs its page in a context of its own (it opens a blank page there for frames). */
async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

describe('accessibility of the console in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ linkFor: ['owner@acme.test', 'staff@provider.test'] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the sign-in screen has no WCAG A/AA violations', async () => {
    const fresh = await newPage(browser);
    await fresh.goto(`${server.url}/`);
    await fresh.getByRole('button', { name: 'Sign in using SSO' }).waitFor();
    await expectNoViolations(fresh);
    await fresh.context().close();
  });

  it('the sign-up screen has no WCAG A/AA violations', async () => {
    const fresh = await newPage(browser);
    await fresh.goto(`${server.url}/sign-up`);
    await fresh.getByRole('heading', { name: 'Create your account', level: 1 }).waitFor();
    await expectNoViolations(fresh);
    await fresh.context().close();
  });

  it('the sign-in screen after an expired session has no WCAG A/AA violations', async () => {
    const fresh = await newPage(browser);
    await fresh.goto(`${server.url}/?expired=true`);
    await fresh.getByRole('button', { name: 'Sign in using SSO' }).waitFor();
    await expectNoViolations(fresh);
    await fresh.context().close();
  });

  describe('as an account owner', () => {
    beforeAll(async () => {
      page = await newPage(browser);
      await page.goto(server.links['owner@acme.test']!);
      await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('the home screen has no WCAG A/AA violations', async () => {
      await expectNoViolations(page);
    });

    it('the one-time passcode dashboard has no WCAG A/AA violations', async () => {
      await visit(page, `/one-time-passcode`);
      await page.getByRole('navigation', { name: 'One-Time Passcode sections' }).waitFor();
      await expectNoViolations(page);
    });

    const otpPages: [string, string, string][] = [
      ['authentications', 'the authentications list', 'Authentications'],
      ['settings/general', 'the one-time passcode general configuration', 'One-Time Passcode: General'],
      ['settings/sms-content', 'the SMS content editor', 'One-Time Passcode: SMS content'],
      ['settings/webhooks', 'the webhooks configuration', 'One-Time Passcode: Webhooks'],
    ];
    for (const [path, what, heading] of otpPages) {
      it(`${what} has no WCAG A/AA violations`, async () => {
        await visit(page, `/one-time-passcode/${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await expectNoViolations(page);
      });
    }

    it("an authentication's detail panel has no WCAG A/AA violations", async () => {
      // one passcode of its own through the development outbox, so the list has a task to open
      await visit(page, `/settings/sms-configuration`);
      const outbox = page.locator('[data-integration="dev-outbox"]');
      await outbox.waitFor();
      const connect = outbox.getByRole('button', { name: 'Connect Development outbox' });
      if (await connect.isVisible()) await connect.click();
      await page.locator('[data-integration="dev-outbox"][data-connected="true"]').waitFor();
      await visit(page, `/one-time-passcode`);
      const send = page.getByRole('form', { name: 'Send passcode' });
      await send.getByLabel('Phone number').fill('+15550107788');
      await send.getByRole('button', { name: 'Send passcode' }).click();
      await page.getByTestId('action-status').waitFor();
      await visit(page, `/one-time-passcode/authentications`);
      await page.getByRole('table', { name: 'Authentications' }).getByRole('button').first().click();
      await page.getByRole('list', { name: 'Timeline' }).waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it("the webhooks 'Add an endpoint' dialog has no WCAG A/AA violations", async () => {
      await visit(page, `/one-time-passcode/settings/webhooks`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('dialog', { name: 'Add an endpoint' }).waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the development SMS outbox has no WCAG A/AA violations', async () => {
      await visit(page, `/dev/sms-outbox`);
      await page.getByRole('heading', { name: 'Development SMS outbox', level: 1 }).waitFor();
      await expectNoViolations(page);
    });

    const settings: [string, string, string][] = [
      ['branding', 'the branding screen', 'Branding'],
      ['domain', 'the domain screen', 'Domain'],
      ['admin-management', 'the admin management screen', 'Admin Management'],
      ['sms-configuration', 'the SMS configuration screen', 'SMS Configuration'],
      ['customer-lookup', 'the customer lookup screen', 'Customer Lookup'],
      ['single-sign-on', 'the single sign-on screen', 'Single Sign-On'],
      ['billing', 'the billing screen', 'Billing'],
      ['logging', 'the logging screen', 'Logging'],
      ['audit-log', 'the audit log screen', 'Audit Log'],
      ['developers', 'the developers screen', 'Developers'],
    ];
    for (const [path, what, heading] of settings) {
      it(`${what} has no WCAG A/AA violations`, async () => {
        await visit(page, `/settings/${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await expectNoViolations(page);
      });
    }

    it("an app's billing page with its credits chart has no WCAG A/AA violations", async () => {
      await visit(page, `/passkeys/settings/billing`);
      await page.getByRole('heading', { name: 'Passkeys billing', level: 1 }).waitFor();
      await page.getByRole('progressbar').waitFor();
      await expectNoViolations(page);
    });

    it("an app's pricing page has no WCAG A/AA violations", async () => {
      await visit(page, `/passkeys/pricing`);
      await page.getByRole('heading', { name: 'Passkeys pricing', level: 1 }).waitFor();
      await expectNoViolations(page);
    });

    it("the 'Add an Administrator' dialog has no WCAG A/AA violations", async () => {
      await visit(page, `/settings/admin-management`);
      await page.getByRole('button', { name: 'Add an Administrator' }).click();
      await page.getByRole('dialog', { name: 'Add an Administrator' }).waitFor();
      await expectNoViolations(page);
    });

    it("the 'Add an Administrator' dialog showing an inline error has no WCAG A/AA violations", async () => {
      const dialog = page.getByRole('dialog', { name: 'Add an Administrator' });
      await dialog.getByLabel('Email').fill('not-an-address');
      await dialog.getByRole('button', { name: 'Add' }).click();
      await dialog.locator('.field-error').waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the customer search dialog has no WCAG A/AA violations', async () => {
      await visit(page, `/`);
      await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
      await page.keyboard.press('Control+k');
      const input = page.getByRole('combobox', { name: 'Customer ID or phone number' });
      await input.fill('CUST-100042');
      await page.getByRole('option').first().waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the app switcher menu has no WCAG A/AA violations', async () => {
      await visit(page, `/one-time-passcode`);
      await page.getByRole('button', { name: /^Switch app/ }).click();
      await page.getByRole('list', { name: 'Apps' }).waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the settings menu has no WCAG A/AA violations', async () => {
      await page.getByRole('button', { name: 'Settings menu' }).click();
      await page.locator('.popover-panel').waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the archive confirmation dialog has no WCAG A/AA violations', async () => {
      await visit(page, `/settings/admin-management`);
      await page
        .getByRole('button', { name: /^Archive / })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the key rotation confirmation has no WCAG A/AA violations', async () => {
      await visit(page, `/settings/developers`);
      await page.getByRole('button', { name: 'Rotate Webhook secret' }).click();
      await page.getByRole('dialog').waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the notifications popover has no WCAG A/AA violations', async () => {
      await visit(page, `/`);
      await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page.getByRole('region', { name: 'Notifications' }).waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });

    it('the resources screen has no WCAG A/AA violations', async () => {
      await visit(page, `/resources`);
      await page.getByRole('heading', { name: 'Resources', level: 1 }).waitFor();
      await expectNoViolations(page);
    });

    it('the page-not-found screen has no WCAG A/AA violations', async () => {
      await visit(page, `/no-such-page`);
      await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
      await expectNoViolations(page);
    });

    it('the support screen has no WCAG A/AA violations', async () => {
      await visit(page, `/support`);
      await page.getByRole('heading', { name: 'Support', level: 1 }).waitFor();
      await expectNoViolations(page);
    });

    it('the support ticket form has no WCAG A/AA violations', async () => {
      await visit(page, `/support/ticket`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('form').first().waitFor();
      await expectNoViolations(page);
    });

    it('the contact sales form has no WCAG A/AA violations', async () => {
      await visit(page, `/sales`);
      await page.getByRole('heading', { name: 'Contact sales', level: 1 }).waitFor();
      await page.locator('form').first().waitFor();
      await expectNoViolations(page);
    });
  });

  describe('as provider staff in Watch Tower', () => {
    beforeAll(async () => {
      page = await newPage(browser);
      await page.goto(server.links['staff@provider.test']!);
      await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('the Watch Tower dashboard has no WCAG A/AA violations', async () => {
      await visit(page, `/watch-tower`);
      await page.getByText('Paid accounts (cumulative)').waitFor();
      await page.locator('.uplot canvas').first().waitFor();
      await expectNoViolations(page);
    });

    it('the Watch Tower per-app charts have no WCAG A/AA violations', async () => {
      await page.getByRole('button', { name: 'Show per-app charts' }).click();
      await page.getByText(/One-Time Passcode: tasks per day/).waitFor();
      await expectNoViolations(page);
    });

    it('the Watch Tower accounts list has no WCAG A/AA violations', async () => {
      await visit(page, `/watch-tower/accounts`);
      await page.getByText(/\d+ active accounts/).waitFor();
      await expectNoViolations(page);
    });

    it('the Watch Tower account detail has no WCAG A/AA violations', async () => {
      await page.getByRole('link', { name: 'Globex Care' }).click();
      await page.getByRole('heading', { name: 'Globex Care', level: 1 }).waitFor();
      await expectNoViolations(page);
    });

    it('the ghost mode confirmation has no WCAG A/AA violations', async () => {
      await page.getByRole('button', { name: 'Ghost Mode' }).click();
      await page.getByRole('dialog', { name: 'View Globex Care as its admin?' }).waitFor();
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
    });
  });
});

describe('accessibility of the Zoom entry in Chromium', () => {
  const ZOOM_APP_ID = 'a11y-zoom-app';
  const ZOOM_SECRET = 'a11y-zoom-app-client-secret';
  let zoom: ZoomPeer;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;

  beforeAll(async () => {
    zoom = await startZoomPeer([{ id: 'z-super', email: 'supervisor@acme.test', first_name: 'Sam', last_name: 'Silva' }]);
    server = await startServer({
      env: {
        ...zoomServerEnv(zoom, ZOOM_APP_ID, ZOOM_SECRET),
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await zoom?.close();
  });

  it("the Zoom 'not yet authorized' card has no WCAG A/AA violations", async () => {
    const context = encryptZoomContext(
      {
        typ: 'panel',
        uid: 'z-super',
        iss: 'marketplace.zoom.us',
        aud: ZOOM_APP_ID,
        ts: Date.now(),
        exp: Date.now() + 5 * 60_000,
      },
      ZOOM_SECRET,
    );
    const page = await newPage(browser);
    // Zoom's WebView2 bridge as the SDK sees it: answers config and getAppContext
    await page.addInitScript(`(() => {
      const listeners = [];
      window.chrome = window.chrome || {};
      window.chrome.webview = {
        addEventListener: (type, fn) => listeners.push(fn),
        postMessage(json) {
          const req = JSON.parse(json);
          const results = {
            config: { clientVersion: '6.2.0', runningContext: 'inMainClient', unsupportedApis: [] },
            getAppContext: { context: ${JSON.stringify(context)} },
          };
          setTimeout(() => listeners.forEach((fn) => fn({ data: { type: 'apiResponse', data: { jsCallId: req.jsCallId, result: results[req.apiName] ?? {} } } })), 5);
        },
      };
    })();`);
    await page.goto(`${server.url}/zoom/`);
    await page.getByRole('heading', { name: "You're not yet authorized" }).waitFor();
    await expectNoViolations(page);
    // the Agent Preview with an app's action form open
    await page.getByRole('button', { name: 'One-Time Passcode' }).click();
    await page.getByRole('form', { name: 'Send passcode' }).waitFor();
    await expectNoViolations(page);
    await page.context().close();
  });
});
