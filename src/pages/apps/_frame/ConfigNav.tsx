import { Link, useLocation } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { useCurrentTabInView } from '../../../app/AppTabs';

const LABELS: Record<string, string> = {
  'settings/general': 'General',
  'settings/sms-content': 'SMS content',
  'settings/webhooks': 'Webhooks',
  'settings/storage': 'Storage',
  'settings/signing': 'Signing',
  'settings/stripe': 'Stripe',
  'settings/billing': 'Billing',
  pricing: 'Pricing',
};

/** The app's configuration pages in menu order: its own settings first, then billing and pricing. */
export function configLinks(app: AppDefinition): { path: string; label: string }[] {
  const settings = app.routes.filter((r) => r.startsWith('settings/') && LABELS[r] && r !== 'settings/billing');
  const money = app.billable ? ['settings/billing', 'pricing'] : [];
  return [...settings, ...money].filter((r) => app.routes.includes(r)).map((path) => ({ path, label: LABELS[path]! }));
}

/** The sub-navigation every settings page of an app shows (inside the app's nest). */
export function ConfigNav({ app }: { app: AppDefinition }) {
  const [location] = useLocation();
  const list = useCurrentTabInView();
  return (
    <nav className="app-tabs app-tabs-inline config-nav" aria-label={`${app.title} configuration`}>
      <ul ref={list}>
        {configLinks(app).map((link) => {
          const active = location === `/${link.path}`;
          return (
            <li key={link.path}>
              <Link
                href={`/${link.path}`}
                className={active ? 'tab tab-active' : 'tab'}
                aria-current={active ? 'page' : undefined}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
        {/* the account's Customer data screen (find, export, erase a caller): outside the app's nest */}
        <li>
          <Link href="~/settings/privacy" className="tab">
            Customer data
          </Link>
        </li>
      </ul>
    </nav>
  );
}

/** A configuration page: title, the sub-navigation, then the page. */
export function ConfigPage({
  app,
  title,
  lead,
  children,
}: {
  app: AppDefinition;
  title: string;
  lead?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="page">
      <h1 className="page-title">
        {app.title}: {title}
      </h1>
      <ConfigNav app={app} />
      {lead && <p className="page-lead">{lead}</p>}
      {children}
    </div>
  );
}
