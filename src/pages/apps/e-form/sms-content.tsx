import type { AppDefinition } from '../../../../api/contract/apps';
import { SmsContent } from '../_frame/SmsContent';

export default function EformSmsContent({ app }: { app: AppDefinition }) {
  return <SmsContent app={app} />;
}
