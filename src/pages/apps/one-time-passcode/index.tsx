import type { AppDefinition } from '../../../../api/contract/apps';
import { OTP_COLUMNS } from '../../../../api/contract/apps/one-time-passcode';
import { Dashboard, type FirstTaskHelp } from '../_frame/Dashboard';

export const FIRST_TASK: FirstTaskHelp = {
  actionLabel: 'Send passcode',
  curl: (origin) => `curl ${origin}/api/v1/otp/send \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"phoneNumber": "+15551234567", "customerRef": "CUST-1"}'

# then, with the id it answers and the code the caller reads out:
curl ${origin}/api/v1/otp/check \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"id": "<id>", "code": "123456"}'`,
};

export default function OneTimePasscodeDashboard({ app }: { app: AppDefinition }) {
  return <Dashboard app={app} columns={OTP_COLUMNS} firstTask={FIRST_TASK} taskNoun="authentications" />;
}
