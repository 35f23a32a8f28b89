import type { AppDefinition } from '../../../../api/contract/apps';
import { SIG_EVENT_TYPES } from '../../../../api/contract/apps/document-signature';
import { Webhooks } from '../_frame/Webhooks';

export default function SigWebhooks({ app }: { app: AppDefinition }) {
  return <Webhooks app={app} eventTypes={SIG_EVENT_TYPES} />;
}
