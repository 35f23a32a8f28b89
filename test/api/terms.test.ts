import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/app';
import { loadConfig, testConfig } from '../../api/config';
import type { Deps } from '../../api/deps';

// The sign-up page's "terms of service" link goes to /terms: the provider's own terms when it has
// set TERMS_URL, else the default page. Neither needs a database.
function appWith(raw: Record<string, string>) {
  const config = testConfig({ raw });
  return createApp({ config, db: null as never, tokens: null as never, now: () => new Date(), log: () => {} } as Deps);
}

describe('terms of service', () => {
  it('without TERMS_URL, /terms is the default terms page, readable signed out', async () => {
    const res = await appWith({}).request('/terms');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<h1>Terms of Service</h1>');
    expect(html).toContain('<title>Terms of Service · Switchboard</title>');
  });

  it("with TERMS_URL, /terms sends the visitor to the provider's own terms", async () => {
    const res = await appWith({ TERMS_URL: 'https://example.com/legal/terms' }).request('/terms');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/legal/terms');
  });

  it('a TERMS_URL that is not a URL stops the server at start, naming the setting', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-config-'));
    expect(() => loadConfig({ DATA_DIR: dir, TERMS_URL: 'our terms' })).toThrow(/TERMS_URL must be a URL/);
  });
});
