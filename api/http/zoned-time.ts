/**
 * '2024-05-01 14:03:22 +01:00' in the given zone: what a spreadsheet and a person both read.
 * Intl is slow per call (tens of µs), too slow for a million rows, so it is asked only for the
 * zone's offset, once per UTC quarter hour: every offset is a multiple of 15 minutes, so a
 * change of offset always falls on such a boundary. The digits come from plain arithmetic.
 */
export function zonedFormatter(timeZone: string): (date: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, timeZoneName: 'longOffset' });
  let bucket = Number.NaN;
  let offset = '+00:00';
  let offsetMs = 0;
  const pad = (n: number) => String(n).padStart(2, '0');
  return (date) => {
    const t = date.getTime();
    const b = Math.floor(t / QUARTER_HOUR);
    if (b !== bucket) {
      const name = format.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
      offset = name === 'GMT' ? '+00:00' : name.replace('GMT', '');
      const [h = 0, m = 0, sec = 0] = offset.slice(1).split(':').map(Number);
      offsetMs = (offset.startsWith('-') ? -1 : 1) * ((h * 60 + m) * 60 + sec) * 1000;
      bucket = b;
    }
    const w = new Date(t + offsetMs);
    return `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}:${pad(w.getUTCSeconds())} ${offset}`;
  };
}

const QUARTER_HOUR = 15 * 60_000;

export const zonedDateTime = (date: Date, timeZone: string): string => zonedFormatter(timeZone)(date);
