import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sanitizeSvg, SvgRejected } from '../../api/branding/svg';
import { readConformance } from '../support/conformance';
import { launchBrowser } from './harness';

// Real logos (CNCF landscape, gilbarbara/logos) drawn by Chromium as <img> data URIs at a fixed
// size, before and after sanitising: a logo must look the same once it is safe to keep.

type Logo = { id: number; source: string; svg: string };
const corpus = readConformance<{ cases: Logo[] }>('svg-logos.json');

const SIZE = 96;
/** A channel difference up to this is anti-aliasing noise, not a change. */
const CHANNEL_TOLERANCE = 24;
/** Share of pixels that may differ beyond the channel tolerance. */
const PIXEL_TOLERANCE = 0.002;

const dataUri = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;

/**
 * The share of pixels that differ between two SVG images drawn on white at SIZE × SIZE, and
 * whether Chromium could draw the original at all (two blank canvases would look "identical").
 */
async function pixelDifference(page: Page, before: string, after: string): Promise<{ difference: number; drawn: boolean }> {
  return page.evaluate(
    async ({ before, after, size, tolerance }) => {
      const draw = async (src: string) => {
        const img = new Image(size, size);
        img.src = src;
        await img.decode().catch(() => undefined);
        const canvas = document.createElement('canvas');
        canvas.width = size;
        canvas.height = size;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, size, size);
        const drawn = img.complete && img.naturalWidth + img.naturalHeight > 0;
        if (drawn) ctx.drawImage(img, 0, 0, size, size);
        return { data: ctx.getImageData(0, 0, size, size).data, drawn };
      };
      const { data: a, drawn } = await draw(before);
      const { data: b } = await draw(after);
      let differing = 0;
      for (let i = 0; i < a.length; i += 4) {
        if (
          Math.abs(a[i] - b[i]) > tolerance ||
          Math.abs(a[i + 1] - b[i + 1]) > tolerance ||
          Math.abs(a[i + 2] - b[i + 2]) > tolerance
        )
          differing++;
      }
      return { difference: differing / (size * size), drawn };
    },
    { before, after, size: SIZE, tolerance: CHANNEL_TOLERANCE },
  );
}

/**
 * The original with only the size rule of the sanitiser applied (SPEC: width and height become a
 * viewBox), so that both images fill the same box.
 */
function sized(svg: string): string {
  return svg.replace(/<svg\b[^>]*>/, (tag) => {
    const w = /\swidth="\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*"/.exec(tag)?.[1];
    const h = /\sheight="\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*"/.exec(tag)?.[1];
    let out = tag.replace(/\s(width|height)="[^"]*"/g, '');
    if (!/\sviewBox=/.test(out) && w && h) out = out.replace(/^<svg/, `<svg viewBox="0 0 ${w} ${h}"`);
    return out;
  });
}

describe.skipIf(!corpus)('real logos look the same after sanitising', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.setContent('<!doctype html><title>logos</title>');
  });
  afterAll(() => browser?.close());

  it('accepts every logo under the size cap and draws each identically', { timeout: 600_000 }, async () => {
    const logos = corpus!.cases;
    const refused: string[] = [];
    const different: { source: string; difference: number }[] = [];
    const undrawable: string[] = [];
    let identical = 0;
    for (const logo of logos) {
      let clean: string;
      try {
        clean = sanitizeSvg(logo.svg);
      } catch (err) {
        if (!(err instanceof SvgRejected)) throw err;
        refused.push(`${logo.source}: ${err.message}`);
        continue;
      }
      const { difference, drawn } = await pixelDifference(page, dataUri(sized(logo.svg)), dataUri(clean));
      if (!drawn) undrawable.push(logo.source);
      else if (difference <= PIXEL_TOLERANCE) identical++;
      else different.push({ source: logo.source, difference });
    }
    console.info(
      `SVG logos: ${logos.length - refused.length} of ${logos.length} accepted, ${identical} drawn identically after sanitising.\n` +
        `Chromium cannot draw the original: ${undrawable.join('; ') || 'none'}\nRefused: ${refused.join('; ') || 'none'}\nDifferent: ${different.map((d) => `${d.source} (${(d.difference * 100).toFixed(2)}%)`).join('; ') || 'none'}`,
    );
    // The size cap (LOGO_MAX_BYTES) is a product rule, not a safety judgement.
    expect(refused.filter((r) => !r.includes('larger than'))).toEqual([]);
    expect(refused.length).toBeLessThanOrEqual(3);
    expect(undrawable).toEqual([]);
    expect(different).toEqual([]);
  });
});

describe('hostile logos stay inert when inlined into a page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const wrap = (inner: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">${inner}</svg>`;
  const HOSTILE = [
    wrap('<rect fill="\\75 rl(http://evil.test/fill.svg#p)" width="5" height="5"/>'),
    wrap('<rect style="fill:\\75\\72\\6c(http://evil.test/style.svg#a)" width="5" height="5"/>'),
    wrap(
      '<style>rect{fill:\\000075rl(http://evil.test/sheet.svg#a)} @\\69mport "http://evil.test/x.css";</style><rect width="5" height="5"/>',
    ),
    wrap('<use href="http://evil.test/sprite.svg#x"/><image href="http://evil.test/x.png" width="5" height="5"/>'),
    wrap('<rect width="5" height="5" onload="document.title=\'ran\'"/><script>document.title="ran"</script>'),
  ];

  it('no request leaves the page and no script runs', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && r.url() !== 'about:blank') requests.push(r.url());
    });
    await page.setContent(`<!doctype html><title>inert</title><body>${HOSTILE.map((svg) => sanitizeSvg(svg)).join('')}</body>`);
    await page.waitForTimeout(500);
    expect(requests).toEqual([]);
    expect(await page.title()).toBe('inert');
    await page.close();
  });
});
