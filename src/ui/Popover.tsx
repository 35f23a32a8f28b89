import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

type PopoverProps = {
  /** the trigger's content; `label` names it for assistive tech when it is only an icon */
  trigger: ReactNode;
  label?: string;
  children: (close: () => void) => ReactNode;
  align?: 'start' | 'end';
  triggerClassName?: string;
  /** 'menu' gives arrow-key navigation between the panel's links and buttons */
  kind?: 'menu' | 'panel';
};

/** The least gap between an open panel and the window's edge, in px. */
const EDGE = 8;

/** A button that opens a panel below it; Escape or a click outside closes it. */
export function Popover({
  trigger,
  label,
  children,
  align = 'end',
  triggerClassName = 'icon-btn',
  kind = 'panel',
}: PopoverProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  // The panel hangs from its trigger, which in a narrow side panel may sit far from the edge it
  // is aligned to: slide it back inside the window, whichever popover it is.
  useLayoutEffect(() => {
    const el = panel.current;
    if (!open || !el) return;
    const place = () => {
      el.style.translate = '';
      const rect = el.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      let shift = 0;
      if (rect.right > width - EDGE) shift = width - EDGE - rect.right;
      if (rect.left + shift < EDGE) shift = EDGE - rect.left;
      if (shift) el.style.translate = `${Math.round(shift)}px 0`;
    };
    place();
    window.addEventListener('resize', place);
    // the trigger moves when its neighbours change size (a credit count arriving in the header)
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    const row = root.current?.parentElement;
    if (observer && row) observer.observe(row);
    if (observer) observer.observe(el);
    return () => {
      window.removeEventListener('resize', place);
      observer?.disconnect();
    };
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    root.current?.querySelector<HTMLElement>('.popover-panel a, .popover-panel button')?.focus();
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      e.stopPropagation();
      close();
      return;
    }
    if (kind !== 'menu' || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    const items = [...(root.current?.querySelectorAll<HTMLElement>('.popover-panel a, .popover-panel button') ?? [])];
    if (!items.length) return;
    e.preventDefault();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
    items[next].focus();
  };

  return (
    <div className="popover" ref={root} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className={triggerClassName}
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {trigger}
      </button>
      {open && (
        <div ref={panel} id={panelId} className={`popover-panel popover-${align}`}>
          {children(close)}
        </div>
      )}
    </div>
  );
}
