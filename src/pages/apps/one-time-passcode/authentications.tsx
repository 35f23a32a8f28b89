import type { AppDefinition } from '../../../../api/contract/apps';
import { OTP_COLUMNS, OTP_STATUSES } from '../../../../api/contract/apps/one-time-passcode';
import { ActivityList } from '../_frame/ActivityList';

export default function Authentications({ app }: { app: AppDefinition }) {
  return <ActivityList app={app} title="Authentications" noun="Authentication" columns={OTP_COLUMNS} statuses={OTP_STATUSES} />;
}
