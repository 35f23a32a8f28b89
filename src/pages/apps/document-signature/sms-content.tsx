import type { AppDefinition } from '../../../../api/contract/apps';
import { SmsContent } from '../_frame/SmsContent';

export default function SigSmsContent({ app }: { app: AppDefinition }) {
  return <SmsContent app={app} />;
}
