import { lazy, Suspense } from 'react';
import { APPS } from '../api/contract/apps';
import { LoadingPanel } from '../src/ui/Spinner';
import type { UnauthorizedCardProps } from './host';

/** The agent functions of the released apps: what a host user without admin access can still use. */
function DefaultAgentPreview() {
  return (
    <ul className="agent-preview-list">
      {APPS.filter((a) => a.released).map((app) => (
        <li key={app.id} className="agent-preview-item">
          <span className="app-dot" style={{ background: app.color }} aria-hidden="true" />
          <div>
            <p className="agent-preview-title">{app.title}</p>
            <p className="muted">{app.description}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

// the action forms and their runner load only for a user who has an agent session
const AgentPreview = lazy(() => import('./AgentPreview'));

/** Shown inside a desktop host to a user who is signed in there but is not a console admin. */
export function UnauthorizedCard({ agentPreview, agentToken }: UnauthorizedCardProps) {
  return (
    <main className="public-main">
      <section className="card public-card unauthorized-card" aria-labelledby="unauthorized-title">
        <h1 id="unauthorized-title" className="page-title">
          You're not yet authorized
        </h1>
        <p>
          Your account isn't an administrator of this Switchboard account. Ask your account administrator to add you. You can
          still use the agent functions below.
        </p>
        <section className="agent-preview" aria-labelledby="agent-preview-title">
          <h2 id="agent-preview-title" className="card-title">
            Agent Preview
          </h2>
          <div className="agent-preview-scroll" tabIndex={0} role="region" aria-label="Agent Preview list">
            {agentPreview ??
              (agentToken ? (
                <Suspense fallback={<LoadingPanel label="Loading agent functions" />}>
                  <AgentPreview token={agentToken} />
                </Suspense>
              ) : (
                <DefaultAgentPreview />
              ))}
          </div>
        </section>
      </section>
    </main>
  );
}
