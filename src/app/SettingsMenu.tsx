import { useAtomValue, useSetAtom } from 'jotai';
import { Link, useLocation } from 'wouter';
import { useApi } from '../api/hooks';
import { bootstrapAtom, tokenAtom } from '../state/session';
import { Popover } from '../ui/Popover';
import { ExternalIcon, GearIcon } from '../ui/icons';
import { SYSTEM_STATUS_URL } from './links';

export function useSignOut() {
  const setToken = useSetAtom(tokenAtom);
  const [, navigate] = useLocation();
  const api = useApi();
  return async () => {
    // Ended on the server first, so the token stops working wherever a copy of it went. A server
    // that cannot be reached must not keep anyone signed in here, so a failure still signs out.
    await api.post('sign-out', {}, { expect: 204 }).catch(() => undefined);
    navigate('/', { replace: true });
    setToken(null);
  };
}

export function SettingsMenu() {
  const bootstrap = useAtomValue(bootstrapAtom);
  const signOut = useSignOut();
  return (
    <Popover kind="menu" label="Settings menu" trigger={<GearIcon />}>
      {(close) => (
        <ul className="menu">
          {bootstrap && (
            <li className="menu-caption">
              <span className="menu-name">
                {bootstrap.firstName} {bootstrap.lastName}
              </span>
              <span className="muted">{bootstrap.account.name}</span>
            </li>
          )}
          <li>
            <Link href="/settings" className="menu-item" onClick={close}>
              Account Settings
            </Link>
          </li>
          <li>
            <Link href="/sales" className="menu-item" onClick={close}>
              Contact sales
            </Link>
          </li>
          <li>
            <Link href="/support/ticket" className="menu-item" onClick={close}>
              Report an issue
            </Link>
          </li>
          <li>
            <a href={SYSTEM_STATUS_URL} target="_blank" rel="noopener noreferrer" className="menu-item" onClick={close}>
              System status <ExternalIcon size={14} />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
          {bootstrap?.isRoot && (
            <li>
              <Link href="/watch-tower" className="menu-item" onClick={close}>
                Watch Tower
              </Link>
            </li>
          )}
          {/* the rule above Sign out is drawn by its item: a decorative <li> would break the list */}
          <li className="menu-separated">
            <button type="button" className="menu-item" onClick={signOut}>
              Sign out
            </button>
          </li>
        </ul>
      )}
    </Popover>
  );
}
