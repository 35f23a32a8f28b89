import type { DailyPoint } from '../contract/watch-tower';

// Daily series arithmetic for Watch Tower. Days are UTC calendar days as 'YYYY-MM-DD'; a day
// without data is a real zero, so every series is filled before anything is averaged or summed.

const DAY_MS = 86_400_000;

export function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return toDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** Longest series drawn: the contract bounds ranges far below this; it is the last line. */
const MAX_SERIES_DAYS = 5_000;

/**
 * Every day from `from` to `to`, both included (empty when from > to). Counted in days, not by
 * comparing day strings: past year 9999 ISO strings no longer sort as dates.
 */
export function dayRange(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!(start <= end)) return [];
  const count = Math.round((end - start) / DAY_MS) + 1;
  if (count > MAX_SERIES_DAYS) throw new RangeError(`A series of ${count} days is longer than ${MAX_SERIES_DAYS}`);
  return Array.from({ length: count }, (_, i) => toDay(new Date(start + i * DAY_MS)));
}

/** The points summed per day over [from, to], with 0 for the days that have none. */
export function fillDays(points: readonly DailyPoint[], from: string, to: string): DailyPoint[] {
  const byDay = new Map<string, number>();
  for (const p of points) byDay.set(p.date, (byDay.get(p.date) ?? 0) + p.count);
  return dayRange(from, to).map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}

/**
 * The trailing moving average of a filled series: each day's value is the mean of that day and
 * the window-1 days before it. Days before the series count as 0, so callers that want a full
 * window from the first day pass `window - 1` days of history and drop them (see `trailing`).
 */
export function movingAverage(daily: readonly DailyPoint[], window: number): DailyPoint[] {
  let sum = 0;
  return daily.map((p, i) => {
    sum += p.count;
    if (i >= window) sum -= daily[i - window]!.count;
    return { date: p.date, count: Math.round((sum / window) * 100) / 100 };
  });
}

/** Running total of a filled series, starting from `base` (what was there before it began). */
export function cumulative(daily: readonly DailyPoint[], base = 0): DailyPoint[] {
  let total = base;
  return daily.map((p) => ({ date: p.date, count: (total += p.count) }));
}

/**
 * The daily counts over [from, to] and their moving average, computed from points that start
 * `window - 1` days before `from` so the first day's average is over a full window.
 */
export function taskSeries(points: readonly DailyPoint[], from: string, to: string, window: number) {
  const withHistory = fillDays(points, addDays(from, -(window - 1)), to);
  const average = movingAverage(withHistory, window).slice(window - 1);
  return { daily: withHistory.slice(window - 1), average };
}
