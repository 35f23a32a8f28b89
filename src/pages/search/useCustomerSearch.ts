import { useEffect, useState } from 'react';
import type { CustomerSearchAnswer, CustomerResult } from '../../../api/contract/results';
import { useApi } from '../../api/hooks';

/** How long typing must pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

export type CustomerSearch = {
  /** the trimmed query the shown answer (or the pending one) is for; '' when cleared */
  term: string;
  results: CustomerResult[] | undefined;
  error: unknown;
  loading: boolean;
};

/**
 * Searches the account's customer results as the user types: the query is trimmed, a search
 * goes out once typing pauses for SEARCH_DEBOUNCE_MS, an empty query clears at once, and an
 * older answer never replaces a newer one.
 */
export function useCustomerSearch(query: string): CustomerSearch {
  const api = useApi();
  const term = query.trim();
  const [state, setState] = useState<CustomerSearch>({ term: '', results: undefined, error: undefined, loading: false });

  useEffect(() => {
    if (!term) {
      setState({ term: '', results: undefined, error: undefined, loading: false });
      return;
    }
    // loading starts with the pause, so the spinner's delay counts from the keystroke
    setState((s) => ({ ...s, loading: true }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.get<CustomerSearchAnswer>('results/customer', { query: { customerRef: term }, signal: controller.signal }).then(
        (answer) => !controller.signal.aborted && setState({ term, results: answer.results, error: undefined, loading: false }),
        (error) => !controller.signal.aborted && setState({ term, results: undefined, error, loading: false }),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, term]);

  return state;
}
