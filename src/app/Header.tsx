import { useAtomValue } from 'jotai';
import { Link, useLocation } from 'wouter';
import { hasRole } from '../state/roles';
import { bootstrapAtom } from '../state/session';
import { ArrowLeftIcon } from '../ui/icons';
import { AppSwitcher } from './AppSwitcher';
import { AppTabs } from './AppTabs';
import { CreditInfo } from './CreditInfo';
import { useCurrentApp } from './current-app';
import { LiveIndicator, Notifications } from './lazy-live';
import { SearchButton } from './SearchButton';
import { SettingsMenu, useSignOut } from './SettingsMenu';

function Logo() {
  const bootstrap = useAtomValue(bootstrapAtom);
  const { name, logo } = bootstrap?.branding ?? { name: '', logo: '' };
  return (
    <Link href="/" className="logo" aria-label={`${name || 'Switchboard'} home`}>
      {/* An <img> never runs script inside an SVG, so the uploaded logo can't act on the page. */}
      {logo ? (
        <img src={`data:image/svg+xml;base64,${logo}`} alt="" className="logo-image" />
      ) : (
        <span className="logo-mark" aria-hidden="true" />
      )}
      <span className="logo-name">{name || 'Switchboard'}</span>
    </Link>
  );
}

export function Header() {
  const bootstrap = useAtomValue(bootstrapAtom);
  const [location] = useLocation();
  const app = useCurrentApp();
  const signOut = useSignOut();
  if (!bootstrap) return null;
  const isAdmin = hasRole(bootstrap.role, 'admin');
  const onSettings = location === '/settings' || location.startsWith('/settings/');
  const billing = app ? bootstrap.billing[app.id] : undefined;
  const showTabs = app && billing && billing.status !== 'inactive';

  return (
    <header className="app-header">
      <div className="header-row">
        <Logo />
        {onSettings && (
          <Link href="/" className="back-link">
            <ArrowLeftIcon size={16} /> <span className="back-link-text">Back to apps</span>
          </Link>
        )}
        <AppSwitcher />
        <div className="header-spacer" />
        <LiveIndicator />
        {isAdmin ? (
          <div className="header-tools">
            <SearchButton />
            {app && <CreditInfo app={app} />}
            <Notifications />
            <SettingsMenu />
          </div>
        ) : (
          // Supervisors get no header tools, but still need a way out.
          <button type="button" className="btn btn-ghost" onClick={signOut}>
            Sign out
          </button>
        )}
      </div>
      {showTabs && <AppTabs app={app} role={bootstrap.role} />}
    </header>
  );
}
