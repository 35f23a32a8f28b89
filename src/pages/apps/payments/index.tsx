import type { AppDefinition } from '../../../../api/contract/apps';
import { AppDashboardPlaceholder } from '../AppPagePlaceholder';

export default function PaymentsDashboard({ app }: { app: AppDefinition }) {
  return <AppDashboardPlaceholder app={app} />;
}
