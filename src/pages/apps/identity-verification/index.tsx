import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_COLUMNS } from '../../../../api/contract/apps/identity-verification';
import { Dashboard, type FirstTaskHelp } from '../_frame/Dashboard';

export const FIRST_TASK: FirstTaskHelp = {
  actionLabel: 'Verify identity',
  curl: (origin) => `curl ${origin}/api/v1/idv/sessions \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"customerRef": "CUST-1", "phoneNumber": "+15551234567", "expectedName": "Anna Maria Eriksson", "expectedDateOfBirth": "1974-08-12"}'

# then follow it (or subscribe to the idv.session.* webhooks):
curl ${origin}/api/v1/idv/sessions/<id> -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY"`,
};

export default function IdentityVerificationDashboard({ app }: { app: AppDefinition }) {
  return <Dashboard app={app} columns={IDV_COLUMNS} firstTask={FIRST_TASK} taskNoun="verifications" />;
}
