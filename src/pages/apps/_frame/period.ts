// The dashboard's period: the last 7, 30 or 90 days in the viewer's time zone (the API reads the
// zone from the time-zone header every call carries), compared with the period before it.

export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = 30;

export function parsePeriod(value: string | null): Period {
  const n = Number(value);
  return (PERIODS as readonly number[]).includes(n) ? (n as Period) : DEFAULT_PERIOD;
}

/**
 * The change of a figure against the previous period, for a KPI tile: null when there is nothing
 * to compare with (no previous value), otherwise a signed percentage rounded to a whole number.
 */
export function change(current: number, previous: number | null | undefined): number | null {
  if (previous == null || !Number.isFinite(previous)) return null;
  if (previous === 0) return current === 0 ? 0 : null;
  return Math.round(((current - previous) / Math.abs(previous)) * 100);
}

export function formatChange(pct: number | null): string {
  if (pct === null) return 'no earlier data';
  if (pct === 0) return 'no change';
  return `${pct > 0 ? '+' : '−'}${Math.abs(pct)}% vs previous period`;
}
