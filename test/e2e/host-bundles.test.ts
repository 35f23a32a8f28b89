import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness';

// Reads the build (npm run test:e2e builds first): each entry carries its own SDK only, and
// the webex entry carries no core-js.

const dist = path.join(ROOT, 'dist');

function jsOf(entry: string): string {
  const dir = path.join(dist, entry);
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      // vendor/ holds files served beside the build and loaded only by one page at run time
      // (pdf.js for the field editor), never part of an entry's code
      if (f.isDirectory()) {
        if (f.name !== 'vendor') walk(p);
      } else if (f.name.endsWith('.js')) files.push(p);
    }
  };
  walk(dir);
  return files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

// Strings that survive minification: Zoom's SDK warning text, a Webex bridge's name, core-js's store key.
const ZOOM_SDK = 'Zoom Apps SDK';
const WEBEX_SDK = 'IFrameBridge';
const CORE_JS = '__core-js_shared__';

describe('host bundles', () => {
  it('the browser entry carries neither host SDK', () => {
    const web = jsOf('web');
    expect(web.length).toBeGreaterThan(10_000);
    expect(web).not.toContain(ZOOM_SDK);
    expect(web).not.toContain(WEBEX_SDK);
  });

  it('the zoom entry carries the Zoom SDK and not the Webex one', () => {
    const zoom = jsOf('zoom');
    expect(zoom).toContain(ZOOM_SDK);
    expect(zoom).not.toContain(WEBEX_SDK);
  });

  it('the webex entry carries the Webex SDK without core-js, and not the Zoom one', () => {
    const webex = jsOf('webex');
    expect(webex).toContain(WEBEX_SDK);
    expect(webex).not.toContain(CORE_JS);
    expect(webex).not.toContain(ZOOM_SDK);
  });

  it("each host entry's initial JS is within 15 KB gzip of the browser entry (the SDKs load at sign-in)", () => {
    const sizes = JSON.parse(fs.readFileSync(path.join(dist, 'sizes.json'), 'utf8')) as Record<string, { initialGzip: number }>;
    expect(sizes.zoom!.initialGzip - sizes.web!.initialGzip).toBeLessThanOrEqual(15 * 1024);
    expect(sizes.webex!.initialGzip - sizes.web!.initialGzip).toBeLessThanOrEqual(15 * 1024);
  });
});
