import type { AppDefinition } from '../../../../api/contract/apps';
import { PAYMENT_EVENT_TYPES } from '../../../../api/contract/apps/payments';
import { Webhooks } from '../_frame/Webhooks';

export default function PaymentsWebhooks({ app }: { app: AppDefinition }) {
  return <Webhooks app={app} eventTypes={PAYMENT_EVENT_TYPES} />;
}
