import { axeViolations } from './axe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { S3_KEY, startS3Peer, type S3Peer } from '../support/s3-peer';

// Storage settings in a 360 px wide Chromium (the console's side panel width) against an
// S3-compatible server on loopback: set the bucket up by keyboard and mouse, test it, save it.

describe('Storage settings in Chromium at 360 px', () => {
  let s3: S3Peer;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    s3 = await startS3Peer(['acme-files']);
    server = await startServer({ linkFor: ['owner@acme.test'], env: { OUTBOUND_ALLOW_HOSTS: s3.host } });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 360, height: 720 } })).newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await s3?.close();
  });

  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('Document Signature > Configuration > Storage: S3 settings pass Test connection and are saved with the secret kept', async () => {
    await page.goto(`${server.url}/document-signature/settings/storage`);
    // the demo account has not started Document Signature yet
    await page.getByRole('button', { name: 'Start Free Trial' }).click();
    await page.waitForURL(`${server.url}/document-signature`);
    await page.goto(`${server.url}/document-signature/settings/storage`);
    await page.getByRole('heading', { name: 'Document Signature: Storage', level: 1 }).waitFor();
    const database = page.getByRole('radio', { name: /This database/ });
    expect(await database.isChecked()).toBe(true);

    // keyboard: arrow keys move between the two choices
    await database.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /S3-compatible bucket/ }).isChecked()).toBe(true);
    await page.getByText('Changing this applies to new files only').waitFor();

    await page.getByRole('textbox', { name: 'Endpoint', exact: true }).fill(s3.url);
    await page.getByRole('textbox', { name: 'Bucket', exact: true }).fill('acme-files');
    await page.getByRole('textbox', { name: 'Access key ID', exact: true }).fill(S3_KEY.accessKeyId);
    await page.getByLabel('Secret access key').fill(S3_KEY.secretAccessKey);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connection works').waitFor();
    await page.getByText('a test object was written to "acme-files", read back and deleted').waitFor();
    expect(await sideways(), 'the page scrolls sideways at 360 px').toBeLessThanOrEqual(0);

    // Enter in a field saves
    const images = page.getByLabel('Identity Verification images');
    await images.fill('30');
    await images.press('Enter');
    await page.getByText('Storage settings have been saved').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Document Signature: Storage', level: 1 }).waitFor();
    const secret = page.getByLabel('Secret access key');
    expect(await secret.inputValue()).toBe('');
    expect(await secret.getAttribute('placeholder')).toBe('Stored (leave blank to keep)');
    expect(await page.getByLabel('Identity Verification images').inputValue()).toBe('30');
    // the kept secret still works
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connection works').waitFor();
  });

  it('a missing bucket is named as such, and the page has no WCAG A/AA violations', async () => {
    await page.getByRole('textbox', { name: 'Bucket', exact: true }).fill('no-such-bucket');
    await page.getByText('The stored secret belongs to the saved endpoint, bucket and access key').waitFor();
    await page.getByLabel('Secret access key').fill(S3_KEY.secretAccessKey);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('No such bucket').waitFor();
    await page.getByText('"no-such-bucket" does not exist').waitFor();
    expect(await sideways()).toBeLessThanOrEqual(0);
    const violations = await axeViolations(page);
    expect(
      violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ') + ' ' + n.html + ' ' + n.failureSummary).join(', ')}`,
      ),
    ).toEqual([]);
  });
});
