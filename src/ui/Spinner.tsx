import { useEffect, useRef, useState } from 'react';
import { SPINNER_DELAY_MS, SPINNER_MIN_VISIBLE_MS } from './constants';

export function Spinner({ label = 'Loading', size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span className={`spinner spinner-${size}`} role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * Whether a spinner should be visible for a loading flag: only after SPINNER_DELAY_MS of
 * loading, and then for at least SPINNER_MIN_VISIBLE_MS, so quick loads never flash.
 */
export function useDelayedSpinner(loading: boolean): boolean {
  const [visible, setVisible] = useState(false);
  const shownAt = useRef<number | null>(null);

  useEffect(() => {
    if (loading) {
      if (shownAt.current !== null) return;
      const timer = setTimeout(() => {
        shownAt.current = Date.now();
        setVisible(true);
      }, SPINNER_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (shownAt.current === null) return;
    const left = SPINNER_MIN_VISIBLE_MS - (Date.now() - shownAt.current);
    const timer = setTimeout(
      () => {
        shownAt.current = null;
        setVisible(false);
      },
      Math.max(0, left),
    );
    return () => clearTimeout(timer);
  }, [loading]);

  return visible;
}

/** A centred spinner for a page or panel that is loading; renders nothing for quick loads. */
export function LoadingPanel({ loading = true, label = 'Loading' }: { loading?: boolean; label?: string }) {
  const visible = useDelayedSpinner(loading);
  return (
    <div className="loading-panel" aria-busy={loading || undefined}>
      {visible && <Spinner label={label} size="lg" />}
    </div>
  );
}
