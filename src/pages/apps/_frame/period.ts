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

/** Below this many in the previous period a percentage says more about chance than change. */
export const RELATIVE_CHANGE_MIN_BASE = 10;
/** Past this a percentage ("+3800%") is not read as a figure: the absolute change says it. */
export const RELATIVE_CHANGE_MAX_PCT = 300;

/**
 * The change under a count, credit or money tile, as people read it: "new this period" when the
 * previous period had none, the absolute change ("+38", "+$12.50") when the previous period was
 * nearly empty or the ratio runs past RELATIVE_CHANGE_MAX_PCT, else a percentage. `absolute`
 * formats an amount in the tile's unit; `base` is the smallest previous value a percentage may
 * stand on (counts: RELATIVE_CHANGE_MIN_BASE; money: 1 minor unit, its size is in the ratio cap).
 */
export function describeChange(
  current: number,
  previous: number,
  absolute: (n: number) => string,
  base = RELATIVE_CHANGE_MIN_BASE,
): string {
  if (current === previous) return 'no change';
  if (previous === 0) return current > 0 ? 'new this period' : formatChange(change(current, previous));
  const pct = change(current, previous)!;
  const difference = current - previous;
  if (Math.abs(previous) < base || Math.abs(pct) > RELATIVE_CHANGE_MAX_PCT)
    return `${difference > 0 ? '+' : '−'}${absolute(Math.abs(difference))} vs previous period`;
  return formatChange(pct);
}
