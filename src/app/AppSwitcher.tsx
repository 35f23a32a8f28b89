import { Link } from 'wouter';
import { Popover } from '../ui/Popover';
import { GridIcon } from '../ui/icons';
import { useCurrentApp, useVisibleApps } from './current-app';

export function AppSwitcher() {
  const apps = useVisibleApps();
  const current = useCurrentApp();
  return (
    <Popover
      kind="menu"
      align="start"
      triggerClassName="btn btn-ghost app-switcher"
      label={current ? `Switch app, current app ${current.title}` : 'Switch app'}
      trigger={
        <>
          <GridIcon />
          <span className="app-switcher-name">{current?.title ?? 'Apps'}</span>
        </>
      }
    >
      {(close) => (
        <ul className="menu" aria-label="Apps">
          {apps.map((app) => (
            <li key={app.id}>
              <Link
                href={`/${app.id}`}
                className="menu-item"
                aria-current={app.id === current?.id ? 'page' : undefined}
                onClick={close}
              >
                <span className="app-dot" style={{ background: app.color }} aria-hidden="true" />
                {app.title}
              </Link>
            </li>
          ))}
          <li>
            <Link href="/" className="menu-item" onClick={close}>
              All apps
            </Link>
          </li>
        </ul>
      )}
    </Popover>
  );
}
