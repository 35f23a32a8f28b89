import type { AppDefinition } from '../../../../api/contract/apps';
import { AppDashboardPlaceholder } from '../AppPagePlaceholder';

export default function DocumentSignatureDashboard({ app }: { app: AppDefinition }) {
  return <AppDashboardPlaceholder app={app} />;
}
