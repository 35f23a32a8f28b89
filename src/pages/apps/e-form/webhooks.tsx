import type { AppDefinition } from '../../../../api/contract/apps';
import { EFORM_EVENT_TYPES } from '../../../../api/contract/apps/e-form';
import { Webhooks } from '../_frame/Webhooks';

export default function EformWebhooks({ app }: { app: AppDefinition }) {
  return <Webhooks app={app} eventTypes={EFORM_EVENT_TYPES} />;
}
