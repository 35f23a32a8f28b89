import { NotBuiltYet } from '../../../ui/Card';

export default function WatchTowerDashboard() {
  return (
    <NotBuiltYet title="Dashboard">
      Charts of tasks completed (14-day moving average) and cumulative paid accounts are not built yet: they arrive in a later release.
    </NotBuiltYet>
  );
}
