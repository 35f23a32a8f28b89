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
  /** typing has paused and the search is out: the spinner's 300 ms count from here (SPEC §4) */
  loading: boolean;
  /** the query changed and its search has not gone out yet (the debounce) */
  pending: boolean;
};

/**
 * Searches the account's customer results as the user types: the query is trimmed, a search
 * goes out once typing pauses for SEARCH_DEBOUNCE_MS, an empty query clears at once, and an
 * older answer never replaces a newer one.
 */
export function useCustomerSearch(query: string): CustomerSearch {
  const api = useApi();
  const term = query.trim();
  const [state, setState] = useState<CustomerSearch>({
    term: '',
    results: undefined,
    error: undefined,
    loading: false,
    pending: false,
  });

  useEffect(() => {
    if (!term) {
      setState({ term: '', results: undefined, error: undefined, loading: false, pending: false });
      return;
    }
    setState((s) => ({ ...s, loading: false, pending: true }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      // the search starts now: loading (and so the spinner's delay) counts from here
      setState((s) => ({ ...s, loading: true, pending: false }));
      api.get<CustomerSearchAnswer>('results/customer', { query: { customerRef: term }, signal: controller.signal }).then(
        (answer) =>
          !controller.signal.aborted &&
          setState({ term, results: answer.results, error: undefined, loading: false, pending: false }),
        (error) => !controller.signal.aborted && setState({ term, results: undefined, error, loading: false, pending: false }),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, term]);

  return state;
}
