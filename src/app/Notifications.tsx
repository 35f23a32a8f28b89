import { Popover } from '../ui/Popover';
import { BellIcon } from '../ui/icons';

export function Notifications() {
  return (
    <Popover label="Notifications" trigger={<BellIcon />}>
      {() => (
        <div className="notifications" role="region" aria-label="Notifications">
          <p className="notifications-title">Notifications</p>
          <p className="muted">You're all caught up. Notifications are not built yet, so nothing will show here for now.</p>
        </div>
      )}
    </Popover>
  );
}
