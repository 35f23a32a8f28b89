import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { Button } from './Button';
import { LoadingPanel } from './Spinner';

type QueryLike = { loading: boolean; error: unknown; data: unknown; reload: () => void };

/** A screen's first load: the spinner, or the failure with 'Try again', or the screen itself. */
export function QueryState({ query, children }: { query: QueryLike; children: () => ReactNode }) {
  if (query.loading && !query.data) return <LoadingPanel />;
  if (query.error) {
    return (
      <div className="notice notice-error" role="alert">
        {errorMessage(query.error)}{' '}
        <Button size="sm" onClick={query.reload}>
          Try again
        </Button>
      </div>
    );
  }
  return <>{children()}</>;
}
