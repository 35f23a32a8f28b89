import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_EVENT_TYPES } from '../../../../api/contract/apps/identity-verification';
import { Webhooks } from '../_frame/Webhooks';

export default function IdvWebhooks({ app }: { app: AppDefinition }) {
  return <Webhooks app={app} eventTypes={IDV_EVENT_TYPES} />;
}
