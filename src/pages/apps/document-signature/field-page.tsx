import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { SIG_FIELD_LABELS, type SigField, type SigFieldKind } from '../../../../api/contract/apps/document-signature';
import { describePosition, nudge, snapMove, snapResize, type Box, type Guides } from './field-placement';

// One page of the field editor: the page as pdf.js draws it, its fields, and while a field kind
// is chosen in the palette, the outline of where it would go (the "ghost"). Fields move by
// dragging or arrows and resize by their corner or Alt + arrows; both snap (field-placement.ts).

type Drag = {
  id: string;
  mode: 'move' | 'resize';
  startX: number;
  startY: number;
  start: SigField;
  rect: DOMRect;
  moved: boolean;
};

export type Ghost = {
  kind: SigFieldKind;
  box: Box /** the keyboard's placement point (focusable), else a pointer's preview */;
  focusable: boolean;
};

export function fieldName(f: Pick<SigField, 'kind' | 'label'>): string {
  return f.label || SIG_FIELD_LABELS[f.kind];
}

export function PageView(props: {
  pdf: PDFDocumentProxy | null;
  index: number;
  pageCount: number;
  size: { width: number; height: number };
  fields: SigField[];
  selected: string | null;
  readOnly: boolean;
  ghost: Ghost | null;
  guides: Guides | null;
  boxRef: (el: HTMLDivElement | null) => void;
  onSelect: (id: string) => void;
  onChange: (f: SigField, guides?: Guides | null) => void;
  /** a drag or a key ended a move or resize: say where it is now */
  onMoved: (f: SigField) => void;
  onRemove: (f: SigField) => void;
  /** a point of this page (fractions) the pointer went over, or tapped, while a kind is chosen */
  onPoint: (page: number, point: { x: number; y: number }, place: boolean) => void;
  onGhostKey: (e: KeyboardEvent) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement | null>(null);
  const drag = useRef<Drag | null>(null);
  const [rendered, setRendered] = useState(false);
  useEffect(() => {
    if (!props.pdf || !canvas.current || !box.current) return;
    let cancelled = false;
    import('./pdf-render')
      .then(({ renderPage }) => renderPage(props.pdf!, props.index, canvas.current!, box.current!.clientWidth))
      .then(() => !cancelled && setRendered(true))
      .catch(() => !cancelled && setRendered(false));
    return () => {
      cancelled = true;
    };
  }, [props.pdf, props.index]);

  const others = (id: string) => props.fields.filter((f) => f.id !== id);
  const begin = (e: ReactPointerEvent, f: SigField, mode: Drag['mode']) => {
    if (props.readOnly) return;
    e.preventDefault();
    e.stopPropagation();
    props.onSelect(f.id);
    drag.current = {
      id: f.id,
      mode,
      startX: e.clientX,
      startY: e.clientY,
      start: f,
      rect: box.current!.getBoundingClientRect(),
      moved: false,
    };
    (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const move = (e: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    d.moved = true;
    const dx = (e.clientX - d.startX) / d.rect.width;
    const dy = (e.clientY - d.startY) / d.rect.height;
    const { box: b, guides } =
      d.mode === 'move'
        ? snapMove({ ...d.start, x: d.start.x + dx, y: d.start.y + dy }, others(d.id))
        : snapResize({ ...d.start, w: d.start.w + dx, h: d.start.h + dy }, others(d.id));
    props.onChange({ ...d.start, ...b }, guides);
  };
  const end = () => {
    const d = drag.current;
    drag.current = null;
    if (!d?.moved) return;
    props.onChange(props.fields.find((f) => f.id === d.id) ?? d.start, null);
    const now = props.fields.find((f) => f.id === d.id);
    if (now) props.onMoved(now);
  };
  const keys = (e: KeyboardEvent, f: SigField) => {
    if (props.readOnly) return;
    const next = nudge(f, e.key, { shift: e.shiftKey, alt: e.altKey });
    if (next) {
      e.preventDefault();
      props.onChange(next, null);
      props.onMoved(next);
    } else if ((e.key === 'PageDown' && f.page < props.pageCount - 1) || (e.key === 'PageUp' && f.page > 0)) {
      // to the next or previous page, at the same place on it
      e.preventDefault();
      const moved = { ...f, page: f.page + (e.key === 'PageDown' ? 1 : -1) };
      props.onChange(moved, null);
      props.onMoved(moved);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      props.onRemove(f);
    }
  };
  const pointOf = (e: { clientX: number; clientY: number }) => {
    const r = box.current!.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  };
  const ghost = props.ghost;
  return (
    <figure className="sig-editor-figure">
      <div
        ref={(el) => {
          box.current = el;
          props.boxRef(el);
        }}
        className={`sig-editor-page${ghost ? ' is-placing' : ''}`}
        data-page={props.index}
        style={{ aspectRatio: `${props.size.width} / ${props.size.height}` }}
        onPointerMove={(e) => {
          // a mouse or pen hovering shows where the chosen kind would go; a finger only taps
          if (e.pointerType !== 'touch' && !drag.current) props.onPoint(props.index, pointOf(e), false);
        }}
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('.sig-field')) return;
          props.onPoint(props.index, pointOf(e), true);
        }}
      >
        <canvas ref={canvas} className="sig-editor-canvas" aria-hidden="true" />
        {!rendered && <span className="sig-editor-loading">Page {props.index + 1}</span>}
        {props.fields.map((f) => (
          <div
            key={f.id}
            role="button"
            tabIndex={0}
            aria-pressed={props.selected === f.id}
            aria-label={`${fieldName(f)} (${SIG_FIELD_LABELS[f.kind]}${f.required ? ', required' : ''}), ${describePosition(f)}${props.readOnly ? '' : '. Arrow keys move it, Shift and arrows further, Alt and arrows resize it, Page Down and Page Up change its page, Delete removes it.'}`}
            className={`sig-field sig-field-${f.kind}${props.selected === f.id ? ' is-selected' : ''}`}
            style={{ left: `${f.x * 100}%`, top: `${f.y * 100}%`, width: `${f.w * 100}%`, height: `${f.h * 100}%` }}
            onPointerDown={(e) => begin(e, f, 'move')}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={end}
            onFocus={() => props.onSelect(f.id)}
            onKeyDown={(e) => keys(e, f)}
            data-field-id={f.id}
          >
            <span className="sig-field-label">{fieldName(f)}</span>
            {!props.readOnly && (
              <span
                className="sig-field-resize"
                aria-hidden="true"
                onPointerDown={(e) => begin(e, f, 'resize')}
                onPointerMove={move}
                onPointerUp={end}
                onPointerCancel={end}
              />
            )}
          </div>
        ))}
        {ghost && (
          <div
            className="sig-ghost"
            role={ghost.focusable ? 'button' : undefined}
            tabIndex={ghost.focusable ? 0 : undefined}
            aria-hidden={ghost.focusable ? undefined : true}
            aria-label={
              ghost.focusable
                ? `Place ${SIG_FIELD_LABELS[ghost.kind]} here: ${describePosition({ page: props.index, ...ghost.box })}. Arrow keys move it, Shift and arrows further, Page Down and Page Up change the page, Enter places it, Escape cancels.`
                : undefined
            }
            style={{
              left: `${ghost.box.x * 100}%`,
              top: `${ghost.box.y * 100}%`,
              width: `${ghost.box.w * 100}%`,
              height: `${ghost.box.h * 100}%`,
            }}
            onKeyDown={props.onGhostKey}
          >
            <span className="sig-field-label">{SIG_FIELD_LABELS[ghost.kind]}</span>
          </div>
        )}
        {props.guides?.x != null && (
          <span className="sig-guide sig-guide-x" aria-hidden="true" style={{ left: `${props.guides.x * 100}%` }} />
        )}
        {props.guides?.y != null && (
          <span className="sig-guide sig-guide-y" aria-hidden="true" style={{ top: `${props.guides.y * 100}%` }} />
        )}
      </div>
      <figcaption className="muted">Page {props.index + 1}</figcaption>
    </figure>
  );
}
