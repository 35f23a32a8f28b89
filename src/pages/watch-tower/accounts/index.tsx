import { NotBuiltYet } from '../../../ui/Card';

export default function WatchTowerAccounts() {
  return (
    <NotBuiltYet title="Accounts">
      The searchable list of all accounts, with their active apps and platform, is not built yet: it arrives in a later release.
    </NotBuiltYet>
  );
}
