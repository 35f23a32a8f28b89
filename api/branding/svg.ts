import DOMPurify from 'isomorphic-dompurify';
import { JSDOM } from 'jsdom';
import { LOGO_MAX_BYTES } from '../contract/branding';

// Logos are customer-supplied SVG that the console shows in every admin's browser, so the server
// keeps only a static, self-contained drawing: DOMPurify (on jsdom, never happy-dom) with the SVG
// profiles, minus everything that can script, fetch, navigate or animate attributes, then our own
// pass for references out of the document. What real design tools write stays: CSS (<style> and
// style attributes, judged after decoding CSS escapes), references inside the document (#id, for
// <use> and paint servers) and embedded bitmaps as data: URIs. The console shows logos only
// through <img>, which runs no script either; this is the second wall, and the one that protects
// other consumers (a logo opened directly or inlined).

const SVG_NS = 'http://www.w3.org/2000/svg';

// One window for the process: DOMPurify and the parser are synchronous, so calls never interleave.
const { window } = new JSDOM('');
const purify = DOMPurify(window as never);

const FORBIDDEN_TAGS = [
  'a',
  'animate',
  'set',
  'foreignObject',
  'foreignobject',
  'animateMotion',
  'animatemotion',
  'animateTransform',
  'animatetransform',
  'animateColor',
  'animatecolor',
  'mpath',
  'tref',
  'script',
  'feImage',
  'feimage',
  'font',
  'altGlyph',
  'altglyph',
  'glyphRef',
  'glyphref',
];
// `values` stays: animation elements are gone, and feColorMatrix needs it.
const FORBIDDEN_ATTRS = ['src', 'action', 'formaction', 'begin', 'end', 'to', 'from', 'by', 'attributeName'];

export class SvgRejected extends Error {}

/** Keeps fragment references (#id); anything that leaves the document is external. */
const isLocalRef = (value: string) => value.trim().startsWith('#');
/** Bitmaps a logo may embed: raster only (an SVG inside a data: URI would be a document again). */
const RASTER_DATA_URI = /^\s*data:image\/(png|jpeg|jpg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;
const URL_REF = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi;
// CSS that reaches outside the document or runs something, whatever the reference looks like.
const CSS_DANGER =
  /@import|@font-face|@namespace|expression\s*\(|image-set\s*\(|\bimage\s*\(|cross-fade\s*\(|element\s*\(|\bsrc\s*\(|-moz-binding|behavior\s*:|javascript:/i;

/**
 * CSS as a browser reads it: comments gone, escapes decoded (`\\75 rl(` is `url(`). Judging the
 * text as written would let an escaped url() through.
 */
export function decodeCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .replace(/\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\r\n|([\s\S]))/g, (_, hex: string | undefined, ch: string | undefined) => {
      if (hex) {
        const code = parseInt(hex, 16);
        return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(code);
      }
      return ch === undefined || ch === '\n' || ch === '\r' || ch === '\f' ? '' : ch;
    });
}

/** True when CSS (a stylesheet, a style attribute or a presentation attribute) is not self-contained. */
export function isUnsafeCss(text: string): boolean {
  const css = decodeCss(text);
  if (CSS_DANGER.test(css)) return true;
  for (const match of css.matchAll(URL_REF)) if (!isLocalRef(match[2] ?? '')) return true;
  // an unterminated url( cannot be judged: treat it as external
  return /url\s*\(/i.test(css.replace(URL_REF, ''));
}

const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** An embedded bitmap's largest side and pixel count: a small file may declare a huge image (a decompression bomb). */
export const LOGO_BITMAP_MAX_SIDE = 4096;
export const LOGO_BITMAP_MAX_PIXELS = 16_000_000;

/** The width and height a raster data: URI declares (PNG, JPEG, GIF, WebP headers); null when it declares none we can read. */
export function bitmapSize(dataUri: string): { width: number; height: number } | null {
  const b = Buffer.from(dataUri.slice(dataUri.indexOf(',') + 1).replace(/\s+/g, ''), 'base64');
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.subarray(12, 16).toString('latin1') === 'IHDR')
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.subarray(0, 3).toString('latin1') === 'GIF')
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 30 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') {
    const chunk = b.subarray(12, 16).toString('latin1');
    if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
    if (chunk === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // walk the segments to the first start of frame, which carries the size
    for (let pos = 2; pos + 9 < b.length; ) {
      if (b[pos] !== 0xff) return null;
      const marker = b[pos + 1]!;
      if (marker === 0xff) {
        pos++;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: b.readUInt16BE(pos + 5), width: b.readUInt16BE(pos + 7) };
      if (marker === 0xda || marker === 0xd9) return null;
      pos += 2 + b.readUInt16BE(pos + 2);
    }
  }
  return null;
}

function assertBitmapSize(dataUri: string): void {
  const size = bitmapSize(dataUri);
  if (!size) throw new SvgRejected('The logo embeds an image whose size cannot be read.');
  if (
    size.width > LOGO_BITMAP_MAX_SIDE ||
    size.height > LOGO_BITMAP_MAX_SIDE ||
    size.width * size.height > LOGO_BITMAP_MAX_PIXELS
  ) {
    throw new SvgRejected(
      `The logo embeds an image of ${size.width} × ${size.height} pixels: at most ${LOGO_BITMAP_MAX_SIDE} on a side and ${LOGO_BITMAP_MAX_PIXELS / 1_000_000} megapixels.`,
    );
  }
}

function stripReferences(root: Element) {
  const elements = [root, ...Array.from(root.getElementsByTagName('*'))];
  for (const el of elements) {
    if (!root.contains(el)) continue;
    const tag = el.localName;
    const href = el.getAttribute('href') ?? el.getAttributeNS(XLINK_NS, 'href');
    // Without an acceptable reference these draw nothing; with a foreign one they fetch.
    if (tag === 'use' && (href === null || !isLocalRef(href))) {
      el.remove();
      continue;
    }
    if (tag === 'image' && (href === null || !RASTER_DATA_URI.test(href))) {
      el.remove();
      continue;
    }
    if (tag === 'image')
      for (const uri of [el.getAttribute('href'), el.getAttributeNS(XLINK_NS, 'href')])
        if (uri !== null && RASTER_DATA_URI.test(uri)) assertBitmapSize(uri);
    if (tag === 'style') {
      if (isUnsafeCss(el.textContent ?? '')) el.remove();
      continue;
    }
    for (const attr of Array.from(el.attributes)) {
      const name = attr.localName.toLowerCase();
      if (name.startsWith('on')) el.removeAttributeNode(attr);
      else if (name === 'href' || name === 'src') {
        if (!isLocalRef(attr.value) && !(tag === 'image' && RASTER_DATA_URI.test(attr.value))) el.removeAttributeNode(attr);
      } else if (isUnsafeCss(attr.value)) el.removeAttributeNode(attr);
    }
  }
}

/**
 * XML-only nodes cannot move into the HTML document DOMPurify works in: CDATA becomes plain
 * text (it is only ever text in a static drawing); comments and processing instructions go.
 */
function flattenXmlNodes(root: Element) {
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 4) node.replaceChild(root.ownerDocument.createTextNode((child as CharacterData).data), child);
      else if (child.nodeType === 7 || child.nodeType === 8) node.removeChild(child);
      else if (child.nodeType === 1) walk(child);
    }
  };
  walk(root);
}

/** `<!DOCTYPE svg PUBLIC "…" "…">`: external identifiers only, no internal subset `[…]`. */
const DOCTYPE_WITHOUT_SUBSET =
  /<!DOCTYPE\s+svg(?:\s+(?:PUBLIC\s+"[^"]*"\s+"[^"]*"|PUBLIC\s+'[^']*'\s+'[^']*'|SYSTEM\s+"[^"]*"|SYSTEM\s+'[^']*'))?\s*>/i;

const LENGTH = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/;

/** The viewBox keeps the drawing's proportions once width and height are gone. */
function normaliseSize(svg: Element) {
  const width = svg.getAttribute('width')?.match(LENGTH)?.[1];
  const height = svg.getAttribute('height')?.match(LENGTH)?.[1];
  if (!svg.hasAttribute('viewBox') && width && height) svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.removeAttribute('width');
  svg.removeAttribute('height');
}

/**
 * Returns the cleaned SVG text, or throws SvgRejected when the input is not an SVG document we
 * can read safely (not UTF-8, too large, DOCTYPE or entities, not well-formed, root not <svg>).
 */
export function sanitizeSvg(text: string): string {
  if (Buffer.byteLength(text, 'utf8') > LOGO_MAX_BYTES)
    throw new SvgRejected(`The logo is larger than ${LOGO_MAX_BYTES / 1024} KB.`);
  if (text.includes('\uFFFD')) throw new SvgRejected('The logo is not UTF-8 text.');
  // Entities are the door to billion-laughs and external entity tricks: a DOCTYPE may only name
  // the SVG DTD (as Illustrator writes it), never declare anything; it is dropped before parsing.
  if (/<!ENTITY/i.test(text)) throw new SvgRejected('The logo may not contain entities.');
  const withoutDoctype = text.replace(DOCTYPE_WITHOUT_SUBSET, '');
  if (/<!DOCTYPE/i.test(withoutDoctype))
    throw new SvgRejected('The logo may not contain a DOCTYPE with declarations or entities.');
  const doc = new window.DOMParser().parseFromString(withoutDoctype, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || doc.getElementsByTagName('parsererror').length > 0)
    throw new SvgRejected('The logo is not a well-formed SVG file.');
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') throw new SvgRejected('The logo must be an SVG image.');

  flattenXmlNodes(root);
  let body: Element;
  try {
    body = purify.sanitize(root, {
      USE_PROFILES: { svg: true, svgFilters: true },
      // DOMPurify leaves <use> out because it can fetch; stripReferences keeps only #id ones.
      ADD_TAGS: ['use'],
      FORBID_TAGS: FORBIDDEN_TAGS,
      FORBID_ATTR: FORBIDDEN_ATTRS,
      ALLOW_DATA_ATTR: false,
      RETURN_DOM: true,
    }) as unknown as Element;
  } catch {
    throw new SvgRejected('The logo could not be read as an SVG image.');
  }
  const svg = body.firstElementChild;
  if (!svg || svg.namespaceURI !== SVG_NS || svg.localName !== 'svg') throw new SvgRejected('The logo must be an SVG image.');
  stripReferences(svg);
  normaliseSize(svg);
  return new window.XMLSerializer().serializeToString(svg);
}

/** base64 in, cleaned SVG text out (what the branding row keeps). */
export function decodeAndSanitizeLogo(base64: string): string {
  if (base64 === '') return '';
  const bytes = Buffer.from(base64, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return sanitizeSvg(text.replace(/^\uFEFF/, ''));
}
