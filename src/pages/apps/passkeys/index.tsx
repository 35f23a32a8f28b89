import type { AppDefinition } from '../../../../api/contract/apps';
import { PASSKEY_COLUMNS } from '../../../../api/contract/apps/passkeys';
import { Dashboard, type FirstTaskHelp } from '../_frame/Dashboard';

export const FIRST_TASK: FirstTaskHelp = {
  actionLabel: 'Enroll a passkey',
  curl: (origin) => `curl ${origin}/api/v1/passkeys/enrollments \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"customerRef": "CUST-1", "phoneNumber": "+15551234567", "displayName": "Ada Lovelace"}'

# next time the customer calls:
curl ${origin}/api/v1/passkeys/verifications \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"customerRef": "CUST-1", "phoneNumber": "+15551234567"}'`,
};

export default function PasskeysDashboard({ app }: { app: AppDefinition }) {
  return <Dashboard app={app} columns={PASSKEY_COLUMNS} firstTask={FIRST_TASK} taskNoun="enrollments and verifications" />;
}
