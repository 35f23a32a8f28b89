import type { AppDefinition } from '../../../../api/contract/apps';
import { AppDashboardPlaceholder } from '../AppPagePlaceholder';

export default function EFormDashboard({ app }: { app: AppDefinition }) {
  return <AppDashboardPlaceholder app={app} />;
}
