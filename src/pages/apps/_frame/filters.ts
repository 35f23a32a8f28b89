// An activity list's filters live in the URL (so a filtered list can be shared and survives a
// reload) and become the API's query: dates the viewer picked are days in the viewer's own time
// zone, which the API reads from the time-zone header.

export type ActivityFilters = {
  status: string;
  /** YYYY-MM-DD, first day included */
  from: string;
  /** YYYY-MM-DD, last day included */
  to: string;
  agent: string;
  /** a customer id or a phone number */
  customer: string;
};

export const NO_FILTERS: ActivityFilters = { status: '', from: '', to: '', agent: '', customer: '' };

const KEYS = Object.keys(NO_FILTERS) as (keyof ActivityFilters)[];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function filtersFromSearch(search: string): ActivityFilters {
  const params = new URLSearchParams(search);
  const filters = { ...NO_FILTERS };
  for (const key of KEYS) filters[key] = params.get(key)?.trim() ?? '';
  if (!DAY.test(filters.from)) filters.from = '';
  if (!DAY.test(filters.to)) filters.to = '';
  return filters;
}

/** The filters as a query string for the page's URL ('' when none is set); other parameters stay. */
export function filtersToSearch(filters: ActivityFilters, search = ''): string {
  const params = new URLSearchParams(search);
  for (const key of KEYS) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The API query of a filtered list: only what is set. The dates go as the days the viewer picked
 * (both included); the API reads them in the viewer's time zone, which every call carries.
 */
export function filtersToQuery(filters: ActivityFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.status) query.status = filters.status;
  if (filters.agent.trim()) query.agent = filters.agent.trim();
  if (filters.customer.trim()) query.q = filters.customer.trim();
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  return query;
}

export function hasFilters(filters: ActivityFilters): boolean {
  return KEYS.some((key) => filters[key].trim() !== '');
}

/** A date range whose end comes before its start is a mistake to point out, not a query to send. */
export function rangeError(filters: ActivityFilters): string | null {
  return filters.from && filters.to && filters.to < filters.from ? 'The end date is before the start date' : null;
}
