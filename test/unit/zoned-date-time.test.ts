import { describe, expect, it } from 'vitest';
import { zonedFormatter } from '../../api/http/zoned-time';

// The export's dates come from cached offsets and arithmetic; they must read exactly what Intl
// says for the instant, across daylight-saving changes and zones with odd offsets.

function reference(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

describe('audit export dates', () => {
  it.each([
    'UTC',
    'Europe/London',
    'America/New_York',
    'Asia/Kathmandu',
    'Australia/Adelaide',
    'Pacific/Chatham',
    'America/St_Johns',
  ])('read the same as Intl in %s every 67 minutes 13 seconds through 2026, newest first', (zone) => {
    const format = zonedFormatter(zone);
    const wrong: string[] = [];
    for (let t = Date.UTC(2027, 0, 1); t > Date.UTC(2026, 0, 1); t -= 4_033_000) {
      const d = new Date(t);
      if (format(d) !== reference(d, zone)) wrong.push(`${d.toISOString()}: ${format(d)} vs ${reference(d, zone)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
