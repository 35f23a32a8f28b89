import type { DashboardAnswer, TaskRow } from '../../api/contract/platform';

// What the console's One-Time Passcode screens are shown in unit tests: one approved passcode
// check, and a 30-day dashboard that lists it.

export const OTP_APP = 'one-time-passcode';
export const OTP_TASK_ID = '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11';

/** A task row as the lists answer it: approved a minute after it was sent, masked number first. */
export const otpTaskRow = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: OTP_TASK_ID,
  status: 'approved',
  phoneNumber: '+1 •••• •• 4567',
  customerRef: 'CUST-100042',
  agent: 'ann@acme.test',
  createdAt: new Date(Date.now() - 60_000).toISOString(),
  endedAt: new Date().toISOString(),
  values: { sends: 1, checks: 1 },
  ...over,
});

/** The app's dashboard: its four figures against the period before, a day of chart, the latest row. */
export const otpDashboard = (over: Partial<DashboardAnswer> = {}): DashboardAnswer => ({
  app: OTP_APP,
  days: 30,
  timeZone: 'UTC',
  tiles: [
    { key: 'sent', label: 'Sent', value: 150, previous: 100, format: 'count' },
    { key: 'verified', label: 'Verified', value: 120, previous: 120, format: 'count' },
    { key: 'conversion', label: 'Conversion rate', value: 80, previous: 75.5, format: 'percent' },
    { key: 'credits', label: 'Credits used', value: 150, previous: 200, format: 'credits' },
  ],
  series: [
    { key: 'sent', label: 'Sent', points: [{ date: '2026-11-22', value: 3 }] },
    { key: 'verified', label: 'Verified', points: [{ date: '2026-11-22', value: 2 }] },
  ],
  latest: [otpTaskRow()],
  ...over,
});
