import type { SigField, SigFieldKind } from '../../../../api/contract/apps/document-signature';

// The field editor's geometry, apart from React so it can be tested alone. Everything is in
// fractions of the page (top-left origin), the units the API stores and the sealing code stamps
// with (api/apps/document-signature/pdf.ts), so what the admin sees is where the stamp lands.

/** A new field's size, by kind: about what a signer writes there on an A4 or Letter page. */
export const FIELD_SIZES: Record<SigFieldKind, { w: number; h: number }> = {
  signature: { w: 0.3, h: 0.06 },
  initials: { w: 0.1, h: 0.05 },
  fullName: { w: 0.3, h: 0.035 },
  dateSigned: { w: 0.2, h: 0.035 },
  text: { w: 0.3, h: 0.035 },
  checkbox: { w: 0.03, h: 0.025 },
};

/** The grid every position and size snaps to: half a percent of the page (about 3 pt on A4). */
export const GRID = 0.005;
/** An arrow key moves one grid step; Shift + arrow ten. */
export const STEP = GRID;
export const BIG_STEP = 0.05;
/** How close (as a fraction of the page) an edge must come to another field's edge to snap to it. */
export const SNAP_DISTANCE = 0.012;

export const MIN_W = 0.01;
export const MIN_H = 0.005;

export type Box = { x: number; y: number; w: number; h: number };
/** The lines a snap aligned to (fractions of the page), drawn as guides while dragging. */
export type Guides = { x: number | null; y: number | null };

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
/** Four decimals: what the API keeps, and no 0.30000000000000004 in stored positions. */
export const round = (n: number) => Math.round(n * 10_000) / 10_000;
const toGrid = (n: number) => Math.round(n / GRID) * GRID;

/** The box kept on its page: sizes at least the minimum, no edge past the page's. */
export function within<T extends Box>(b: T): T {
  const w = round(clamp(b.w, MIN_W, 1));
  const h = round(clamp(b.h, MIN_H, 1));
  return { ...b, w, h, x: round(clamp(b.x, 0, 1 - w)), y: round(clamp(b.y, 0, 1 - h)) };
}

/** A resized box kept on its page: the top-left stays, the size stops at the page's edge. */
function withinResized<T extends Box>(b: T): T {
  const x = round(clamp(b.x, 0, 1 - MIN_W));
  const y = round(clamp(b.y, 0, 1 - MIN_H));
  return { ...b, x, y, w: round(clamp(b.w, MIN_W, 1 - x)), h: round(clamp(b.h, MIN_H, 1 - y)) };
}

/** The nearest of `targets` to any of `edges` within SNAP_DISTANCE: how far to shift, and the line. */
function nearest(edges: number[], targets: number[]): { shift: number; line: number } | null {
  let best: { shift: number; line: number } | null = null;
  for (const e of edges)
    for (const t of targets) {
      const d = t - e;
      if (Math.abs(d) <= SNAP_DISTANCE && (!best || Math.abs(d) < Math.abs(best.shift))) best = { shift: d, line: t };
    }
  return best;
}

const xEdges = (b: Box) => [b.x, b.x + b.w / 2, b.x + b.w];
const yEdges = (b: Box) => [b.y, b.y + b.h / 2, b.y + b.h];

/**
 * A moved box, snapped: to another field's left, centre or right (top, middle, bottom) when one
 * of its own comes within SNAP_DISTANCE, else to the grid; then kept on the page.
 */
export function snapMove(b: Box, others: Box[]): { box: Box; guides: Guides } {
  const sx = nearest(xEdges(b), others.flatMap(xEdges));
  const sy = nearest(yEdges(b), others.flatMap(yEdges));
  const box = within({ ...b, x: sx ? b.x + sx.shift : toGrid(b.x), y: sy ? b.y + sy.shift : toGrid(b.y) });
  return { box, guides: { x: sx ? sx.line : null, y: sy ? sy.line : null } };
}

/** A resized box (its right and bottom edges moved), snapped the same way; the top-left stays. */
export function snapResize(b: Box, others: Box[]): { box: Box; guides: Guides } {
  const right = b.x + b.w;
  const bottom = b.y + b.h;
  const sx = nearest([right], others.flatMap(xEdges));
  const sy = nearest([bottom], others.flatMap(yEdges));
  const w = (sx ? sx.line : toGrid(right)) - b.x;
  const h = (sy ? sy.line : toGrid(bottom)) - b.y;
  return { box: withinResized({ ...b, w, h }), guides: { x: sx ? sx.line : null, y: sy ? sy.line : null } };
}

/** A box of `size` centred on a point of the page (where the pointer let go), snapped and kept on the page. */
export function dropAt(
  point: { x: number; y: number },
  size: { w: number; h: number },
  others: Box[],
): { box: Box; guides: Guides } {
  return snapMove({ x: point.x - size.w / 2, y: point.y - size.h / 2, ...size }, others);
}

/** Where an arrow key takes a box: a step (Shift: a big step), kept on the page; Alt resizes instead. */
export function nudge<T extends Box>(b: T, key: string, opts: { shift?: boolean; alt?: boolean }): T | null {
  const step = opts.shift ? BIG_STEP : STEP;
  const delta = (
    { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<
      string,
      [number, number]
    >
  )[key];
  if (!delta) return null;
  return opts.alt
    ? withinResized({ ...b, w: b.w + delta[0], h: b.h + delta[1] })
    : within({ ...b, x: b.x + delta[0], y: b.y + delta[1] });
}

/** Where a box is, in words a screen reader says: "page 1, 40% from the left, 58% from the top". */
export function describePosition(f: Pick<SigField, 'page' | 'x' | 'y' | 'w' | 'h'>): string {
  const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;
  return `page ${f.page + 1}, ${pct(f.x)} from the left, ${pct(f.y)} from the top, ${pct(f.w)} wide`;
}

/** A field id the API takes (1 to 16 lowercase letters or digits), not already used. */
export function newFieldId(used: Set<string>): string {
  for (;;) {
    const id = Math.random()
      .toString(36)
      .slice(2, 10)
      .replace(/[^a-z0-9]/g, '');
    if (id && !used.has(id)) return id;
  }
}
