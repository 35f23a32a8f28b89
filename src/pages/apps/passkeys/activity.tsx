import type { AppDefinition } from '../../../../api/contract/apps';
import { PASSKEY_COLUMNS, PASSKEY_STATUSES } from '../../../../api/contract/apps/passkeys';
import { ActivityList } from '../_frame/ActivityList';

export default function PasskeysActivity({ app }: { app: AppDefinition }) {
  return <ActivityList app={app} title="Activity" noun="Task" columns={PASSKEY_COLUMNS} statuses={PASSKEY_STATUSES} />;
}
