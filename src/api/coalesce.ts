import { useCallback, useEffect, useRef } from 'react';

/**
 * `fn` at most once per `ms`, and never later than it must be: a call with nothing run in the last
 * `ms` runs it at once (a live list shows a change as soon as it is announced); calls during the
 * window ride along as one more run at its end, so a burst of changes costs two reads, not one each.
 */
export function useCoalesced(fn: () => void, ms: number): () => void {
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef(false);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) {
      pending.current = true;
      return;
    }
    const close = () => {
      timer.current = null;
      if (!pending.current) return;
      pending.current = false;
      fnRef.current();
      timer.current = setTimeout(close, ms);
    };
    fnRef.current();
    timer.current = setTimeout(close, ms);
  }, [ms]);
}
