import { lazy } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_COLUMNS, IDV_STATUSES } from '../../../../api/contract/apps/identity-verification';
import { ActivityList } from '../_frame/ActivityList';

const Review = lazy(() => import('./review'));

export default function Verifications({ app }: { app: AppDefinition }) {
  return <ActivityList app={app} title="Verifications" noun="Verification" columns={IDV_COLUMNS} statuses={IDV_STATUSES} Detail={Review} />;
}
