import type { AppDefinition } from '../../../../api/contract/apps';
import { SIG_COLUMNS } from '../../../../api/contract/apps/document-signature';
import { Dashboard, type FirstTaskHelp } from '../_frame/Dashboard';

export const FIRST_TASK: FirstTaskHelp = {
  actionLabel: 'Send for signature',
  curl: (origin) => `curl ${origin}/api/v1/signatures \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"documentId": "<a published document id>", "signerName": "Ada Lovelace", "phoneNumber": "+15551234567", "customerRef": "CUST-1"}'

# then follow it (sent, opened, signed, completed, declined, expired, cancelled):
curl ${origin}/api/v1/signatures/<id> -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY"`,
};

export default function DocumentSignatureDashboard({ app }: { app: AppDefinition }) {
  return <Dashboard app={app} columns={SIG_COLUMNS} firstTask={FIRST_TASK} taskNoun="signatures" />;
}
