import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { SIG_FIELD_KINDS, SIG_FIELD_LABELS, type SigFieldKind } from '../../../../api/contract/apps/document-signature';

// The palette of field kinds, as in Documenso: drag a kind onto a page and let go where it goes,
// or choose it (click, tap, Enter or Space) and then tap the page or place it with the keyboard.
// A field is only ever added where the admin puts it. Pointer events, so mouse, pen and touch
// are one code path; the buttons take no touch scrolling (touch-action: none) so a finger drags.

const HINTS: Record<SigFieldKind, string> = {
  signature: 'drawn or typed',
  initials: 'the signer’s initials',
  fullName: 'filled with the signer’s name',
  dateSigned: 'stamped when signed',
  text: 'free text',
  checkbox: 'a tick box',
};

/** How far (CSS px) a pointer must travel on a palette button before it is a drag and not a click. */
const DRAG_START = 6;

export type PaletteDrag = { kind: SigFieldKind; clientX: number; clientY: number };

export function FieldPalette(props: {
  armed: SigFieldKind | null;
  /** a kind chosen (click, tap, Enter, Space); the same kind again puts it down */
  onArm: (kind: SigFieldKind | null) => void;
  /** a drag under way (null: ended) */
  onDrag: (drag: PaletteDrag | null) => void;
  /** let go at this point of the window */
  onDrop: (drag: PaletteDrag) => void;
}) {
  const start = useRef<{ kind: SigFieldKind; x: number; y: number; id: number } | null>(null);
  const dragged = useRef(false);
  // a press and release without a drag is a choice, made on the release: Chromium sends no
  // click after a tap on a button holding the pointer capture. The click that may follow is
  // then not a second choice; a click with no pointer before it (Enter, Space, a screen
  // reader) is one.
  const handled = useRef(false);
  const [open, setOpen] = useState(true);

  const down = (e: ReactPointerEvent<HTMLButtonElement>, kind: SigFieldKind) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    start.current = { kind, x: e.clientX, y: e.clientY, id: e.pointerId };
    dragged.current = false;
    handled.current = false;
    // the moves and the release come here wherever the pointer goes
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const move = (e: ReactPointerEvent) => {
    const s = start.current;
    if (!s || s.id !== e.pointerId) return;
    if (!dragged.current && Math.hypot(e.clientX - s.x, e.clientY - s.y) < DRAG_START) return;
    dragged.current = true;
    props.onDrag({ kind: s.kind, clientX: e.clientX, clientY: e.clientY });
  };
  const up = (e: ReactPointerEvent) => {
    const s = start.current;
    start.current = null;
    if (!s) return;
    handled.current = true;
    if (dragged.current) props.onDrop({ kind: s.kind, clientX: e.clientX, clientY: e.clientY });
    else props.onArm(props.armed === s.kind ? null : s.kind);
  };
  const cancel = () => {
    start.current = null;
    handled.current = false;
    if (dragged.current) props.onDrag(null);
    dragged.current = false;
  };

  return (
    <details className="card sig-palette" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary className="sig-palette-summary">Fields</summary>
      <p className="muted sig-palette-help" id="sig-palette-help">
        Drag a field onto the page where it goes, or choose one and tap the page. By keyboard: Enter chooses it, arrows move it,
        Enter places it.
      </p>
      <div className="sig-palette-kinds" role="group" aria-label="Field kinds">
        {SIG_FIELD_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className="sig-palette-kind"
            aria-pressed={props.armed === kind}
            aria-describedby="sig-palette-help"
            data-kind={kind}
            onPointerDown={(e) => down(e, kind)}
            onPointerMove={move}
            onPointerUp={up}
            onPointerCancel={cancel}
            onClick={() => {
              if (handled.current) {
                handled.current = false;
                return;
              }
              props.onArm(props.armed === kind ? null : kind);
            }}
          >
            <span className="sig-palette-name">{SIG_FIELD_LABELS[kind]}</span>
            <span className="sig-palette-hint">{HINTS[kind]}</span>
          </button>
        ))}
      </div>
    </details>
  );
}
