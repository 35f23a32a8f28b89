import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uiRoutes } from '../../api/static';

// Zoom shows a page only when its HTML answer carries HSTS, nosniff, a CSP and a referrer
// policy; Webex frames the app, so its entry must allow the Webex origins as frame ancestors.

let dist: string;
let app: ReturnType<typeof uiRoutes>;

beforeAll(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-dist-'));
  for (const entry of ['web', 'zoom', 'webex']) {
    fs.mkdirSync(path.join(dist, entry));
    fs.writeFileSync(path.join(dist, entry, 'index.html'), `<!doctype html><title>${entry}</title>`);
    fs.writeFileSync(path.join(dist, entry, 'main-ABCDEFGH.js'), 'console.log(1)');
  }
  app = uiRoutes(dist);
});
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const csp = (res: Response) =>
  Object.fromEntries(
    (res.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v]),
  );

describe('security headers of the host entries', () => {
  for (const url of ['/zoom/', '/zoom', '/zoom/settings/developers', '/zoom/index.html']) {
    it(`the zoom entry's HTML at ${url} carries the four headers Zoom requires`, async () => {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<title>zoom</title>');
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      const policy = csp(res);
      expect(policy['default-src']).toEqual(["'self'"]);
      // the bundled SDK talks to the client through postMessage: scripts and calls stay on our origin
      expect(policy['script-src']).toEqual(["'self'"]);
      expect(policy['connect-src']).toEqual(["'self'"]);
      expect(policy['frame-ancestors']).toContain('https://*.zoom.us');
    });
  }

  for (const url of ['/webex/', '/webex/passkeys', '/webex/index.html']) {
    it(`the webex entry at ${url} may be framed by Webex and sends no X-Frame-Options`, async () => {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>webex</title>');
      expect(res.headers.get('x-frame-options')).toBeNull();
      const ancestors = csp(res)['frame-ancestors'];
      expect(ancestors).toEqual(
        expect.arrayContaining(["'self'", 'https://*.webex.com', 'https://*.wbx2.com', 'https://*.ciscospark.com']),
      );
      expect(res.headers.get('strict-transport-security')).toBeTruthy();
    });
  }

  it('the browser entry may only be framed by itself', async () => {
    const res = await app.request('/settings/developers');
    expect(await res.text()).toContain('<title>web</title>');
    expect(csp(res)['frame-ancestors']).toEqual(["'self'"]);
  });

  it('hashed assets of the zoom entry are cached for a year and never sniffed', async () => {
    const res = await app.request('/zoom/main-ABCDEFGH.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
