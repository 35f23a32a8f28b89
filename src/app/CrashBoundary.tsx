import { Component, type ReactNode } from 'react';
import { useLocation } from 'wouter';

type Props = { children: ReactNode; onReport: () => void; resetKey: string };
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
    return (
      <div className="crash" role="alert">
        <h1>Something went wrong</h1>
        <p className="crash-message">{error.message || 'An unexpected error occurred.'}</p>
        <div className="crash-actions">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <button type="button" className="btn btn-secondary" onClick={this.props.onReport}>
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
    <Boundary resetKey={location} onReport={() => navigate('/support/ticket')}>
      {children}
    </Boundary>
  );
}
