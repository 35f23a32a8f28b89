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

const CLIENTS = {
  zoom: { name: 'Zoom', where: 'Open it from Apps in the Zoom desktop or mobile client, in a meeting or from the Apps tab.' },
  webex: { name: 'Webex', where: 'Open it from Apps in a Webex meeting or space, in the Webex app or the Webex web client.' },
} as const;

/** An embedded entry opened in a plain browser tab: where it runs, and the console this browser can use. */
function OutsideClientCard({ host }: { host: Host }) {
  const client = host.kind === 'browser' ? null : CLIENTS[host.kind];
  // the tab names itself as every page does (Session's titles are not mounted here)
  useEffect(() => {
    let live = true;
    if (client) void import('./title').then(({ titleOf }) => live && (document.title = titleOf([`Runs inside ${client.name}`])));
    return () => {
      live = false;
    };
  }, [client]);
  if (!client) return null;
  return (
    <main className="public-main">
      <div className="card public-card">
        <h1 className="page-title">This page runs inside {client.name}</h1>
        <p>{client.where}</p>
        <p>
          {/* a plain link out of the embedded base path: the browser entry is served at the root */}
          <a className="btn btn-primary" href={`${window.location.origin}/`}>
            Open the console in this browser
          </a>
        </p>
      </div>
    </main>
  );
}

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
  if (result.outcome === 'outside') return <OutsideClientCard host={host} />;
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
