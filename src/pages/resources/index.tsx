import { Link } from 'wouter';
import { DOCS_URL, SYSTEM_STATUS_URL } from '../../app/links';
import { SUPPORT_EMAIL } from '../support/contacts';

type Resource = { title: string; description: string } & ({ href: string } | { to: string });

const RESOURCES: Resource[] = [
  { title: 'Documentation', description: 'Guides for every app, the agent application and the developer API.', href: DOCS_URL },
  { title: 'API reference', description: 'Endpoints, webhooks and signature checks for developers.', href: `${DOCS_URL}/api` },
  {
    title: 'System status',
    description: 'Live availability of the console, the agent application and each app.',
    href: SYSTEM_STATUS_URL,
  },
  { title: 'Support', description: 'Live chat, tickets and contact addresses.', to: '/support' },
  { title: 'Report an issue', description: 'Tell us about a problem and how urgent it is.', to: '/support/ticket' },
  {
    title: 'Data Processing Addendum',
    description: 'How we process personal data on your behalf.',
    to: '/legal/data-processing-addendum',
  },
  { title: 'Contact sales', description: 'Plans, Enterprise conversion and new apps.', to: '/sales' },
];

export default function ResourcesPage() {
  return (
    <div className="page">
      <h1 className="page-title">Resources</h1>
      <p className="muted page-lead">
        Everything you need to set up and run Switchboard. Can't find it? Write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
      <ul className="resource-grid">
        {RESOURCES.map((r) => (
          <li key={r.title} className="card resource-card">
            <h2 className="card-title">
              {'href' in r ? (
                <a href={r.href} target="_blank" rel="noopener noreferrer">
                  {r.title}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                <Link href={r.to}>{r.title}</Link>
              )}
            </h2>
            <p className="muted">{r.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
