import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import type { CustomerPagePreview } from '../../api/contract/platform';

// Customer pages' scripts come from the build (hashed files under dist/web/customer-pages) and
// run under the page's CSP nonce: the preview's Continue answers only when its script ran.

describe('customer-page scripts in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let previewUrl: string;
  const refused: string[] = [];

  beforeAll(async () => {
    server = await startServer({ linkFor: ['admin@acme.test'] });
    const token = new URL(server.links['admin@acme.test']!).searchParams.get('token')!;
    const res = await fetch(`${server.url}/api/one-time-passcode/customer-page-preview`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    previewUrl = ((await res.json()) as CustomerPagePreview).url;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("the preview page's script loads under its CSP and makes Continue explain the preview", async () => {
    // the link names the server's public host; the page is the same on the test server
    await page.goto(`${server.url}${new URL(previewUrl).pathname}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('This is a preview: on a real link, this is where your customer continues.').waitFor();
    expect(refused).toEqual([]);
  });

  it('the script is a hashed file served with a year-long immutable cache', async () => {
    const src = await page.locator('script[src]').getAttribute('src');
    expect(src).toMatch(/^\/customer-pages\/preview-[A-Z0-9]{8}\.js$/);
    const res = await fetch(`${server.url}${src}`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  });
});
