import { NotBuiltYet } from '../../../ui/Card';
import { shortenId } from '../../../ui/format';

export default function WatchTowerAccount({ id }: { id: string }) {
  return (
    <NotBuiltYet title={`Account ${shortenId(id)}`}>
      The account detail (Ghost Mode, task charts, app status and admins) is not built yet: it arrives in a later release.
    </NotBuiltYet>
  );
}
