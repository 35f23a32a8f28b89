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

/** The menu's pages, in order: settings and billing, then help. */
const MENU_LINKS: [string, string][] = [
  ['/settings', 'Account Settings'],
  ['/settings/billing', 'Billing'],
  ['/support', 'Support'],
  ['/resources', 'Resources'],
  ['/sales', 'Contact sales'],
  ['/support/ticket', 'Report an issue'],
];

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
          {MENU_LINKS.map(([href, label]) => (
            <li key={href}>
              <Link href={href} className="menu-item" onClick={close}>
                {label}
              </Link>
            </li>
          ))}
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
