import { createStore, Provider, useSetAtom } from 'jotai';
import { Suspense, useEffect, useState } from 'react';
import { Router } from 'wouter';
import type { Host, TokenResult } from '../host';
import { errorMessage } from '../api/client';
import { tokenAtom } from '../state/session';
import { Toaster } from '../ui/Toast';
import { CrashBoundary } from './CrashBoundary';
import { HostContext } from './host-context';
import { Session } from './Session';

type Store = ReturnType<typeof createStore>;

/** Asks the host for a session first; until it answers nothing is shown. */
function HostGate({ host }: { host: Host }) {
  const [result, setResult] = useState<TokenResult | null>(null);
  const setToken = useSetAtom(tokenAtom);

  useEffect(() => {
    let live = true;
    host.acquireToken().then(
      (answer) => {
        if (!live) return;
        if (answer.outcome === 'token') setToken(answer.token);
        setResult(answer);
      },
      (error) => live && setResult({ outcome: 'error', message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [host, setToken]);

  if (!result) return null;
  if (result.outcome === 'unauthorized') {
    return (
      <Suspense fallback={null}>
        <host.UnauthorizedCard agentToken={result.agentToken} />
      </Suspense>
    );
  }
  if (result.outcome === 'error') {
    return (
      <main className="public-main">
        <div className="card public-card" role="alert">
          <h1 className="page-title">Sign-in failed</h1>
          <p>{result.message}</p>
        </div>
      </main>
    );
  }
  return <Session />;
}

/** The whole console for one host. Tests pass their own store. */
export function Console({ host, store }: { host: Host; store?: Store }) {
  const [ownStore] = useState(() => store ?? createStore());
  return (
    <Provider store={ownStore}>
      <HostContext.Provider value={host}>
        <Router base={host.basePath}>
          <CrashBoundary>
            <HostGate host={host} />
          </CrashBoundary>
          <Toaster />
        </Router>
      </HostContext.Provider>
    </Provider>
  );
}
