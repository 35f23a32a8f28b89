import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_COLUMNS, IDV_STATUSES } from '../../../../api/contract/apps/identity-verification';
import { ActivityList } from '../_frame/ActivityList';

// Every verification; opening one shows it on the review screen (a page, with the queue beside it).

export default function Verifications({ app }: { app: AppDefinition }) {
  return <ActivityList app={app} title="Verifications" noun="Verification" columns={IDV_COLUMNS} statuses={IDV_STATUSES} openHref={(id) => `/review?session=${encodeURIComponent(id)}`} />;
}
