import type { AppDefinition } from '../../../../api/contract/apps';
import { OTP_EVENT_TYPES } from '../../../../api/contract/apps/one-time-passcode';
import { Webhooks } from '../_frame/Webhooks';

export default function OtpWebhooks({ app }: { app: AppDefinition }) {
  return <Webhooks app={app} eventTypes={OTP_EVENT_TYPES} />;
}
