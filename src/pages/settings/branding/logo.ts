// Logo handling in the browser: only SVG files are taken, sized by a viewBox instead of fixed
// width and height (so the header can scale them), and their colours offered as brand colours.
// The server sanitises whatever arrives; nothing here is a security boundary.

export const LOGO_TYPE = 'image/svg+xml';

const SVG_NS = 'http://www.w3.org/2000/svg';
const LENGTH = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/;

/** The SVG text ready to upload, or null when it is not an SVG document. */
export function prepareLogo(text: string): string | null {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (!svg || doc.getElementsByTagName('parsererror').length > 0) return null;
  if (svg.localName !== 'svg' || svg.namespaceURI !== SVG_NS) return null;
  const width = svg.getAttribute('width')?.match(LENGTH)?.[1];
  const height = svg.getAttribute('height')?.match(LENGTH)?.[1];
  if (!svg.hasAttribute('viewBox') && width && height) svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  return new XMLSerializer().serializeToString(svg);
}

const HEX = /#([0-9a-f]{6}|[0-9a-f]{3})(?![0-9a-f])/gi;
const RGB = /rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)/gi;

const hex2 = (n: number) => Math.max(0, Math.min(255, n)).toString(16).padStart(2, '0');

/** '#f60' -> '#FF6600' */
export function normaliseHex(value: string): string {
  const digits = value.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((c) => c + c).join('') : digits;
  return `#${full.toUpperCase()}`;
}

/** The logo's colours other than black and white, in order of first use, for brand-colour suggestions. */
export function logoColors(svgText: string, max = 8): string[] {
  const found: { at: number; color: string }[] = [];
  for (const m of svgText.matchAll(HEX)) found.push({ at: m.index ?? 0, color: normaliseHex(m[0]) });
  for (const m of svgText.matchAll(RGB))
    found.push({ at: m.index ?? 0, color: `#${[m[1], m[2], m[3]].map((n) => hex2(Number(n))).join('')}`.toUpperCase() });
  found.sort((a, b) => a.at - b.at);
  const colors: string[] = [];
  for (const { color } of found) {
    if (color === '#000000' || color === '#FFFFFF' || colors.includes(color)) continue;
    colors.push(color);
    if (colors.length === max) break;
  }
  return colors;
}

/** UTF-8 text to base64 (btoa alone only takes Latin-1). */
export function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(base64: string): string {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The only way the console shows a logo: as an image, which runs no script. */
export const logoSrc = (base64: string) => `data:${LOGO_TYPE};base64,${base64}`;

/** Brand colour as typed: uppercased, at most 7 characters, a leading '#' added. */
export function normaliseColorInput(value: string): string {
  const v = value.trim().toUpperCase();
  return (v.startsWith('#') ? v : `#${v}`).slice(0, 7);
}
