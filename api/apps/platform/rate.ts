/**
 * A dashboard rate, 0–100 with one decimal: `part` of `whole`. Null when there is no whole (nothing
 * sent, ended or decided in the period): "0 %" would say every one failed.
 */
export function rate(part: number, whole: number): number | null {
  return whole ? Math.round((part / whole) * 1000) / 10 : null;
}
