import { describe, expect, it } from 'vitest';
import {
  describePosition,
  dropAt,
  FIELD_SIZES,
  GRID,
  nudge,
  snapMove,
  snapResize,
  within,
} from '../../../src/pages/apps/document-signature/field-placement';

// The field editor's geometry: where a dropped, dragged or nudged field ends up, in the page
// fractions the API stores and the sealing code stamps with.

const onGrid = (n: number) => Math.abs(n / GRID - Math.round(n / GRID)) < 1e-6;

describe('placing Document Signature fields', () => {
  it('a field dropped on the page is centred where it was let go, on the grid', () => {
    const { box } = dropAt({ x: 0.5, y: 0.6 }, FIELD_SIZES.dateSigned, []);
    expect(box).toEqual({ x: 0.4, y: 0.585, w: 0.2, h: 0.035 });
    const odd = dropAt({ x: 0.333, y: 0.777 }, FIELD_SIZES.signature, []).box;
    expect(onGrid(odd.x) && onGrid(odd.y)).toBe(true);
    expect(Math.abs(odd.x + odd.w / 2 - 0.333)).toBeLessThanOrEqual(GRID);
  });

  it('a field never leaves its page: dropped at an edge or a corner it stays wholly on it', () => {
    for (const point of [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
      { x: -0.2, y: 0.5 },
      { x: 0.99, y: 0.01 },
    ]) {
      const { box } = dropAt(point, FIELD_SIZES.signature, []);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.w).toBeLessThanOrEqual(1);
      expect(box.y + box.h).toBeLessThanOrEqual(1);
    }
    expect(nudge({ x: 0, y: 0.5, w: 0.2, h: 0.05 }, 'ArrowLeft', { shift: true })!.x).toBe(0);
    expect(nudge({ x: 0.8, y: 0.5, w: 0.2, h: 0.05 }, 'ArrowRight', { alt: true })!.w).toBe(0.2);
    expect(within({ x: 0.9, y: 0.99, w: 0.5, h: 0.2 })).toEqual({ x: 0.5, y: 0.8, w: 0.5, h: 0.2 });
  });

  it("a dragged field snaps to another field's edge when it comes close, and shows the line", () => {
    const name = { x: 0.1, y: 0.6, w: 0.3, h: 0.035 };
    // 0.7 % right of the name's left edge: it lines up with it
    const { box, guides } = snapMove({ x: 0.107, y: 0.7013, w: 0.2, h: 0.035 }, [name]);
    expect(box.x).toBe(0.1);
    expect(guides.x).toBe(0.1);
    // far from every edge vertically: the grid
    expect(box.y).toBe(0.7);
    expect(guides.y).toBeNull();
    // its top meets the name's bottom
    expect(snapMove({ x: 0.5, y: 0.64, w: 0.2, h: 0.035 }, [name]).box.y).toBe(0.635);
  });

  it("a resized field's corner snaps to the grid and to other fields' edges", () => {
    const other = { x: 0.5, y: 0.2, w: 0.2, h: 0.05 };
    const { box, guides } = snapResize({ x: 0.1, y: 0.205, w: 0.393, h: 0.0413 }, [other]);
    expect(box.w).toBe(0.4);
    expect(guides.x).toBe(0.5);
    expect(box.h).toBe(0.045);
    expect(snapResize({ x: 0.1, y: 0.1, w: 0.0001, h: 0.0001 }, []).box).toMatchObject({ w: 0.01, h: 0.005 });
  });

  it('arrow keys move one grid step, Shift ten, Alt resizes; other keys are not moves', () => {
    const f = { x: 0.4, y: 0.4, w: 0.2, h: 0.05 };
    expect(nudge(f, 'ArrowRight', {})).toEqual({ ...f, x: 0.405 });
    expect(nudge(f, 'ArrowDown', { shift: true })).toEqual({ ...f, y: 0.45 });
    expect(nudge(f, 'ArrowLeft', { alt: true })).toEqual({ ...f, w: 0.195 });
    expect(nudge(f, 'Enter', {})).toBeNull();
  });

  it('says where a field is in words', () => {
    expect(describePosition({ page: 0, x: 0.4, y: 0.58, w: 0.2, h: 0.035 })).toBe(
      'page 1, 40% from the left, 58% from the top, 20% wide',
    );
  });
});
