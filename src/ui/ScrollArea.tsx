import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A box that scrolls sideways when its content (a table) is wider than the screen, instead of
 * widening the page. Shadows at the clipped edges show there is more; while it overflows it is
 * a named region in the tab order, so keyboard users can scroll it too.
 */
export function ScrollArea({ label, className = '', children }: { label: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={box}
      className={`scroll-x ${className}`.trim()}
      role={overflows ? 'region' : undefined}
      aria-label={overflows ? `${label} (scrolls sideways)` : undefined}
      tabIndex={overflows ? 0 : undefined}
      data-overflows={overflows ? 'true' : undefined}
    >
      {children}
    </div>
  );
}
