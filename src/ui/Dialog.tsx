import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
const BODY_FOCUSABLE = FOCUSABLE.split(', ')
  .map((s) => `.dialog-body ${s}`)
  .join(', ');

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
};

/**
 * A modal dialog: labelled by its title, Escape and the backdrop close it, Tab stays inside,
 * and focus returns to whatever opened it.
 */
export function Dialog({ open, onClose, title, description, children, footer, size = 'md' }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  // What had focus before the dialog rendered: read during render, because a control inside the
  // dialog with autoFocus takes focus during the commit, before any effect could look.
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current && typeof document !== 'undefined') opener.current = document.activeElement as HTMLElement | null;
  wasOpen.current = open;

  useEffect(() => {
    if (!open) return;
    const from = opener.current;
    const root = panel.current;
    // A control React already autofocused wins; otherwise the body's first control, so the
    // close button isn't where typing starts.
    if (root && !root.contains(document.activeElement)) {
      const target = root.querySelector<HTMLElement>(BODY_FOCUSABLE) ?? root.querySelector<HTMLElement>(FOCUSABLE) ?? root;
      target.focus();
    }
    return () => {
      // the opener may have gone meanwhile (a menu item whose menu closed): then the page's main
      if (from?.isConnected) from.focus();
      else document.getElementById('main')?.focus();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close.current();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  // In a portal on <body>: the page's layout rules (spacing between siblings, overflow, stacking)
  // then never reach the fixed backdrop, which must cover the whole window, header included.
  return createPortal(
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close.current()}>
      <div
        ref={panel}
        className={`dialog dialog-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog-header">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={() => close.current()}>
            ×
          </button>
        </header>
        {description && (
          <p id={descriptionId} className="dialog-description">
            {description}
          </p>
        )}
        {children && <div className="dialog-body">{children}</div>}
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
