import { describe, expect, it } from 'vitest';
import { sanitizeSvg, decodeAndSanitizeLogo, SvgRejected } from '../../api/branding/svg';

// Hostile logos: each must come out without anything that can run, fetch or navigate.

/** The first bytes of a bitmap of this type declaring this size (all the sanitiser reads). */
function bitmapHeader(type: 'png' | 'jpeg' | 'gif' | 'webp', width: number, height: number): Buffer {
  if (type === 'png') {
    const b = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
    b.writeUInt32BE(13, 8);
    b.write('IHDR', 12, 'latin1');
    b.writeUInt32BE(width, 16);
    b.writeUInt32BE(height, 20);
    return b;
  }
  if (type === 'gif') {
    const b = Buffer.alloc(13);
    b.write('GIF89a', 0, 'latin1');
    b.writeUInt16LE(width, 6);
    b.writeUInt16LE(height, 8);
    return b;
  }
  if (type === 'jpeg') {
    const b = Buffer.alloc(4 + 19);
    b.writeUInt16BE(0xffd8, 0);
    b.writeUInt16BE(0xffc0, 2);
    b.writeUInt16BE(17, 4);
    b[6] = 8;
    b.writeUInt16BE(height, 7);
    b.writeUInt16BE(width, 9);
    return b;
  }
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

const wrap = (inner: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"${attrs}>${inner}</svg>`;

/** What must never survive, in any form. */
const DANGER =
  /<script|\son\w+\s*=|javascript:|<foreignObject|<iframe|<animate|<set[\s>/]|<use[\s>/]|<image|<style|<a[\s>]|http:|https:|data:|<!ENTITY|<!DOCTYPE|<feImage/i;

const HOSTILE: Record<string, string> = {
  'script element': wrap('<script>alert(1)</script><rect width="5" height="5"/>'),
  'script with CDATA': wrap('<script><![CDATA[alert(1)]]></script>'),
  'onload handler on the root': wrap('<rect width="1" height="1"/>', ' onload="alert(1)"'),
  'event handler on a shape': wrap('<circle r="3" onmouseover="alert(1)" onclick="alert(2)"/>'),
  'javascript: link': wrap('<a xlink:href="javascript:alert(1)"><text>click</text></a>'),
  'javascript: href on a gradient': wrap('<linearGradient id="g" href="javascript:alert(1)"/>'),
  'foreignObject with HTML': wrap(
    '<foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test"></iframe></foreignObject>',
  ),
  'animation that sets an event handler': wrap(
    '<rect width="1" height="1"><set attributeName="onmouseover" to="alert(1)"/></rect>',
  ),
  'animate rewriting href': wrap('<a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a>'),
  'external use reference': wrap('<use href="https://evil.test/sprite.svg#x"/>'),
  'external image': wrap('<image href="https://evil.test/track.png" width="1" height="1"/>'),
  'data: image': wrap('<image xlink:href="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+"/>'),
  'style element with external import': wrap(
    '<style>@import url(https://evil.test/x.css); rect{fill:url(https://evil.test/#a)}</style>',
  ),
  'style attribute': wrap('<rect style="fill:url(https://evil.test/#a)" width="1" height="1"/>'),
  'external paint server in fill': wrap('<rect fill="url(https://evil.test/paint.svg#p)" width="1" height="1"/>'),
  'feImage fetching a URL': wrap('<filter id="f"><feImage href="https://evil.test/x.png"/></filter>'),
  'embedded HTML namespace script': wrap('<html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script>'),
  'CSS-escaped url() in a presentation attribute': wrap('<rect fill="\\75 rl(https://evil.test/p.svg#p)" width="1" height="1"/>'),
  'CSS-escaped url() in a style attribute': wrap('<rect style="fill:\\75\\72\\6c(https://evil.test/#a)" width="1" height="1"/>'),
  'CSS-escaped url() in a style element': wrap(
    '<style>rect{fill:\\000075rl(https://evil.test/#a)}</style><rect width="1" height="1"/>',
  ),
  'url() split by a CSS comment': wrap('<style>rect{fill:url(/**/https://evil.test/#a)}</style>'),
  'CSS-escaped @import': wrap('<style>@\\69mport "https://evil.test/x.css";</style>'),
  'image-set with a bare string': wrap('<rect style="fill:image-set(\'https://evil.test/x.png\' 1x)" width="1" height="1"/>'),
  'external use through xlink:href': wrap('<use xlink:href="https://evil.test/sprite.svg#x"/>'),
  'use pointing at a data: document': wrap('<use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/>'),
  'javascript: in an image href': wrap('<image href="javascript:alert(1)" width="1" height="1"/>'),
  'HTML in a data: URI disguised as a bitmap': wrap(
    '<image href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==" width="1" height="1"/>',
  ),
  'processing instruction stylesheet': `<?xml-stylesheet href="https://evil.test/x.css"?>${wrap('<rect width="1" height="1"/>')}`,
};

describe('SVG logo sanitising', () => {
  for (const [name, svg] of Object.entries(HOSTILE)) {
    it(`cleans ${name}`, () => {
      const out = sanitizeSvg(svg);
      // namespace declarations are names, not references: leave them out of the check
      expect(out.replace(/\sxmlns(:\w+)?="[^"]*"/g, '')).not.toMatch(DANGER);
      expect(out.startsWith('<svg')).toBe(true);
    });
  }

  it('keeps an ordinary logo drawing intact', () => {
    const out = sanitizeSvg(
      wrap(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#FF0000"/></linearGradient></defs><path d="M0 0L10 10" fill="url(#g)" stroke="#00AA00"/><text x="1" y="9">Acme</text>',
      ),
    );
    expect(out).toContain('fill="url(#g)"');
    expect(out).toContain('stop-color="#FF0000"');
    expect(out).toContain('<text x="1" y="9">Acme</text>');
  });

  it('keeps local references to gradients', () => {
    const out = sanitizeSvg(wrap('<linearGradient id="a"/><linearGradient id="b" href="#a"/>'));
    expect(out).toContain('href="#a"');
  });

  it('turns width and height into a viewBox', () => {
    const out = sanitizeSvg(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120px" height="40"><rect width="5" height="5"/></svg>',
    );
    expect(out).toMatch(/^<svg[^>]*viewBox="0 0 120 40"/);
    expect(out).not.toMatch(/^<svg[^>]*\swidth=/);
    expect(out).not.toMatch(/^<svg[^>]*\sheight=/);
  });

  it('keeps an existing viewBox and drops width and height', () => {
    const out = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5" width="100" height="100"/>');
    expect(out).toContain('viewBox="0 0 5 5"');
    expect(out).not.toContain('width=');
  });

  it('keeps CSS that stays inside the document', () => {
    const out = sanitizeSvg(
      wrap(
        '<style>.a{fill:#33de72;fill-rule:evenodd}.b{fill:url(#g)}</style><rect class="a" style="opacity:.5;fill:url(#g)" width="1" height="1"/>',
      ),
    );
    expect(out).toContain('<style>.a{fill:#33de72;fill-rule:evenodd}.b{fill:url(#g)}</style>');
    expect(out).toContain('style="opacity:.5;fill:url(#g)"');
  });

  it('keeps <use> of an element of the same document', () => {
    const out = sanitizeSvg(wrap('<defs><path id="p" d="M0 0h5v5z"/></defs><use xlink:href="#p" x="2"/><use href="#p"/>'));
    expect(out).toMatch(/<use [^>]*href="#p" x="2"\/>/);
    expect(out).toContain('<use href="#p"/>');
  });

  it('keeps embedded PNG, JPEG, GIF and WebP bitmaps', () => {
    for (const type of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const href = `data:image/${type};base64,${bitmapHeader(type, 1, 1).toString('base64')}`;
      expect(sanitizeSvg(wrap(`<image xlink:href="${href}" width="1" height="1"/>`))).toContain(href);
    }
  });

  it('refuses an embedded bitmap that declares more than 4,096 px a side or 16 megapixels (a 146 KB file can declare 30,000 × 30,000)', () => {
    for (const type of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const huge = `data:image/${type};base64,${bitmapHeader(type, 30_000 % (type === 'gif' ? 65_536 : 1e9), 30_000).toString('base64')}`;
      expect(() => sanitizeSvg(wrap(`<image href="${huge}" width="1" height="1"/>`)), type).toThrow(
        /at most 4096 on a side and 16 megapixels/,
      );
    }
    const wide = `data:image/png;base64,${bitmapHeader('png', 4097, 10).toString('base64')}`;
    expect(() => sanitizeSvg(wrap(`<image xlink:href="${wide}"/>`))).toThrow(SvgRejected);
    const square = `data:image/png;base64,${bitmapHeader('png', 4000, 4000).toString('base64')}`;
    expect(sanitizeSvg(wrap(`<image xlink:href="${square}"/>`))).toContain(square);
    expect(() => sanitizeSvg(wrap(`<image href="data:image/png;base64,AAAA"/>`))).toThrow(/cannot be read/);
  });

  it('keeps filter primitives and their attributes', () => {
    const out = sanitizeSvg(
      wrap(
        '<filter id="f"><feColorMatrix type="matrix" values="1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0"/><feGaussianBlur stdDeviation="2"/></filter><rect filter="url(#f)" width="1" height="1"/>',
      ),
    );
    expect(out).toContain('values="1 0 0 0 0');
    expect(out).toContain('filter="url(#f)"');
  });

  it('accepts the SVG 1.1 DOCTYPE that Illustrator writes', () => {
    const svg = `<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${wrap('<rect width="1" height="1"/>')}`;
    expect(sanitizeSvg(svg)).toContain('<rect width="1" height="1"/>');
  });

  it('refuses a DOCTYPE with an internal subset even without entities', () => {
    expect(() =>
      sanitizeSvg(`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [<!ATTLIST svg a CDATA "b">]>${wrap('')}`),
    ).toThrow(SvgRejected);
  });

  it('refuses a DOCTYPE with entities (billion laughs)', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>`;
    expect(() => sanitizeSvg(bomb)).toThrow(SvgRejected);
  });

  it('refuses an external entity', () => {
    const xxe = `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>`;
    expect(() => sanitizeSvg(xxe)).toThrow(SvgRejected);
  });

  it('refuses a document whose root is not svg', () => {
    expect(() => sanitizeSvg('<html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>')).toThrow(
      SvgRejected,
    );
    expect(() => sanitizeSvg('<svg><rect/></svg>')).toThrow(SvgRejected); // no SVG namespace
  });

  it('refuses text that is not well-formed XML', () => {
    expect(() => sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')).toThrow(SvgRejected);
    expect(() => sanitizeSvg('not an svg at all')).toThrow(SvgRejected);
  });

  it('refuses bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('</text></svg>'),
    ]);
    expect(() => decodeAndSanitizeLogo(bytes.toString('base64'))).toThrow(SvgRejected);
  });

  it('refuses a logo over the size cap', () => {
    const big = wrap(`<path d="${'M0 0 '.repeat(60_000)}"/>`);
    expect(() => sanitizeSvg(big)).toThrow(/larger than/);
  });
});
