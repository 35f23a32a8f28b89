import { useEffect, useMemo, useState } from 'react';
import type { AppId } from '../api/contract/apps';
import type { AgentAppsAnswer } from '../api/contract/platform';
import { createApi, errorMessage } from '../src/api/client';
import { LiveTokenContext } from '../src/api/live-token';
import { ActionRunner } from '../src/pages/apps/_frame/ActionRunner';
import { Button } from '../src/ui/Button';
import { LoadingPanel } from '../src/ui/Spinner';
import { setConsoleTimeZone } from '../src/ui/format';
import { JourneyProgress, SendJourney } from '../src/pages/journeys/send';

/**
 * The live Agent Preview: the active apps this agent session may use, each with its agent
 * actions (for One-Time Passcode: send a passcode, then check the code), the status of the task
 * followed as it changes. Loaded only for a host user who got an agent session.
 */
export default function AgentPreview({ token }: { token: string }) {
  const api = useMemo(() => createApi({ getToken: () => token }), [token]);
  const [answer, setAnswer] = useState<AgentAppsAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const [chosen, setChosen] = useState<AppId | 'journeys' | null>(null);
  const [sentJourney, setSentJourney] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    api.get<AgentAppsAnswer>('/agent/apps', { signal: controller.signal }).then(
      (got) => {
        // an agent session has no bootstrap: the panel's dates take the account's zone from here
        setConsoleTimeZone(got.timeZone);
        setAnswer(got);
      },
      (e) => !controller.signal.aborted && setError(e),
    );
    return () => controller.abort();
  }, [api, version]);

  if (error) {
    return (
      <div role="alert" className="agent-preview-error">
        <p>{errorMessage(error, 'The agent functions could not be loaded.')}</p>
        <Button size="sm" onClick={() => setVersion((v) => v + 1)}>
          Try again
        </Button>
      </div>
    );
  }
  if (!answer) return <LoadingPanel label="Loading agent functions" />;
  if (answer.apps.length === 0) return <p className="muted">No app is active on this account yet.</p>;
  const app = answer.apps.find((a) => a.id === chosen);
  return (
    <div className="agent-preview-live">
      <ul className="agent-preview-list" aria-label="Apps">
        {answer.apps.map((a) => (
          <li key={a.id} className="agent-preview-item">
            <span className="app-dot" style={{ background: a.color }} aria-hidden="true" />
            <button
              type="button"
              className="link-button agent-preview-title"
              aria-pressed={a.id === chosen}
              onClick={() => setChosen(a.id === chosen ? null : a.id)}
            >
              {a.title}
            </button>
          </li>
        ))}
        {/* several apps in one link: the account's journeys, picked as the apps' pickers work */}
        <li className="agent-preview-item">
          <span className="app-dot" style={{ background: '#0F766E' }} aria-hidden="true" />
          <button
            type="button"
            className="link-button agent-preview-title"
            aria-pressed={chosen === 'journeys'}
            onClick={() => setChosen(chosen === 'journeys' ? null : 'journeys')}
          >
            Journeys
          </button>
        </li>
      </ul>
      {chosen === 'journeys' && (
        <section aria-label="Journeys" className="agent-preview-app">
          <h3 className="card-title">Send a journey</h3>
          <LiveTokenContext.Provider value={token}>
            {sentJourney ? (
              <JourneyProgress api={api} id={sentJourney} onDone={() => setSentJourney(null)} />
            ) : (
              <SendJourney api={api} onSent={(j) => setSentJourney(j.id)} />
            )}
          </LiveTokenContext.Provider>
        </section>
      )}
      {app && (
        <section aria-label={app.title} className="agent-preview-app">
          <h3 className="card-title">{app.title}</h3>
          {/* the agent's own stream: it carries this agent's tasks only */}
          <LiveTokenContext.Provider value={token}>
            <ActionRunner key={app.id} api={api} app={app.id} actions={app.actions} unavailable={app.unavailable} />
          </LiveTokenContext.Provider>
        </section>
      )}
    </div>
  );
}
