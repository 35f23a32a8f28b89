import { useLayoutEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import type { AppDefinition, AppTab } from '../../api/contract/apps';
import type { Role } from '../../api/contract/common';
import { hasRole } from '../state/roles';

/** The tabs a role sees: admin-only tabs (Documents, Forms, Configuration) are hidden below admin. */
export function visibleTabs(app: AppDefinition, role: Role): AppTab[] {
  return app.tabs.filter((t) => !t.adminOnly || hasRole(role, 'admin'));
}

function isActive(app: AppDefinition, tab: AppTab, location: string): boolean {
  const root = `/${app.id}`;
  if (tab.path === '') return location === root || location === `${root}/` || location === `${root}/dashboard`;
  // Configuration points at settings/general but stands for every settings page of the app.
  const section = tab.path.split('/')[0];
  return location === `${root}/${section}` || location.startsWith(`${root}/${section}/`);
}

/**
 * A bar of tabs scrolls sideways in a narrow panel: the current one is brought into it at each
 * move (Configuration is last of the app tabs, Developers of the settings menu). Give the list
 * the returned ref.
 */
export function useCurrentTabInView() {
  const [location] = useLocation();
  const list = useRef<HTMLUListElement>(null);
  // braces: Chromium's scrollIntoView now answers a Promise, which React would take for a cleanup
  useLayoutEffect(() => {
    list.current?.querySelector('[aria-current]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [location]);
  useScrollEdges(list);
  return list;
}

/**
 * Marks the list's parent with `data-more-start` / `data-more-end` while tabs are hidden past that
 * edge, so the bar shows a chevron there (shell.css): a cut-off label alone does not say "scroll".
 */
function useScrollEdges(list: { current: HTMLElement | null }) {
  useLayoutEffect(() => {
    const el = list.current;
    const host = el?.parentElement;
    if (!el || !host) return;
    const mark = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollWidth - el.clientWidth - el.scrollLeft > 1;
      if (start) host.setAttribute('data-more-start', '');
      else host.removeAttribute('data-more-start');
      if (end) host.setAttribute('data-more-end', '');
      else host.removeAttribute('data-more-end');
    };
    mark();
    el.addEventListener('scroll', mark, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(mark);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', mark);
      observer?.disconnect();
    };
  }, [list]);
}

export function AppTabs({ app, role }: { app: AppDefinition; role: Role }) {
  const [location] = useLocation();
  const list = useCurrentTabInView();
  return (
    <nav className="app-tabs" aria-label={`${app.title} sections`}>
      <ul ref={list}>
        {visibleTabs(app, role).map((tab) => {
          const active = isActive(app, tab, location);
          return (
            <li key={tab.label}>
              <Link
                href={`/${app.id}${tab.path ? `/${tab.path}` : ''}`}
                className={active ? 'tab tab-active' : 'tab'}
                aria-current={active ? 'page' : undefined}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
