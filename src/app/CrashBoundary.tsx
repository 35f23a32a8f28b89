import { Component, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { referenceOf } from '../api/client';

// Chromium, Firefox and Safari each word a failed dynamic import their own way.
const CHUNK_LOAD_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** True for an error that says a page's code could not be fetched (a lazy route's chunk). */
export function isChunkLoadFailure(error: Error): boolean {
  return CHUNK_LOAD_FAILURE.test(error.message);
}

type Props = { children: ReactNode; onReport: (reference: string | undefined) => void; resetKey: string };
type State = { error: Error | null; key: string };

class Boundary extends Component<Props, State> {
  state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  // Moving to another page clears the crash, so 'Report error' and the back button work.
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (isChunkLoadFailure(error)) {
      // the page's code could not be fetched: the server is unreachable, not broken. The module
      // loader keeps a failed import, so Retry reloads rather than rendering again.
      return (
        <div className="crash" role="alert">
          <h1>Can't reach the server</h1>
          <p className="crash-message">This page could not be loaded. Please check your internet connection and try again.</p>
          <div className="crash-actions">
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              Retry
            </button>
          </div>
        </div>
      );
    }
    // a failed API call's request id: support finds the request in the server's log by it
    const reference = referenceOf(error);
    return (
      <div className="crash" role="alert">
        <h1>Something went wrong</h1>
        <p className="crash-message">{error.message || 'An unexpected error occurred.'}</p>
        {reference && <p className="crash-reference">Reference: {reference}</p>}
        <div className="crash-actions">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => this.props.onReport(reference)}>
            Report error
          </button>
        </div>
      </div>
    );
  }
}

/** The crash screen: any render error below it shows the message, Reload and Report error. */
export function CrashBoundary({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  return (
    <Boundary
      resetKey={location}
      onReport={(reference) =>
        navigate(reference ? `/support/ticket?reference=${encodeURIComponent(reference)}` : '/support/ticket')
      }
    >
      {children}
    </Boundary>
  );
}
