import type { AppDefinition } from '../../../../api/contract/apps';
import { PASSKEY_EVENT_TYPES } from '../../../../api/contract/apps/passkeys';
import { Webhooks } from '../_frame/Webhooks';

export default function PasskeysWebhooks({ app }: { app: AppDefinition }) {
  return <Webhooks app={app} eventTypes={PASSKEY_EVENT_TYPES} />;
}
