import { useStore } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { tokenAtom } from '../state/session';
import { createApi, type Api } from './client';

/** The API client bound to this console's session; an expired token anywhere signs out. */
export function useApi(): Api {
  const store = useStore();
  const [, navigate] = useLocation();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  return useMemo(
    () =>
      createApi({
        getToken: () => store.get(tokenAtom),
        onSessionExpired: () => {
          // Navigate first: once the token is gone the signed-out router redirects any other path.
          navigateRef.current('/?expired=true', { replace: true });
          store.set(tokenAtom, null);
        },
      }),
    [store],
  );
}

export type Query<T> = { data: T | undefined; error: unknown; loading: boolean; reload: () => void };

/**
 * Loads data for a component. `key` identifies what to load (null skips loading); a newer
 * key's answer always wins over an older one's.
 */
export function useQuery<T>(key: string | null, load: (api: Api, signal: AbortSignal) => Promise<T>): Query<T> {
  const api = useApi();
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown; loading: boolean }>({
    key: null,
    loading: key !== null,
  });
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((s) => ({ key, data: s.key === key ? s.data : undefined, loading: true }));
    loadRef.current(api, controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, data, loading: false }),
      (error) => !controller.signal.aborted && setState({ key, error, loading: false }),
    );
    return () => controller.abort();
  }, [api, key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: key !== null && (!current || state.loading),
    reload,
  };
}
