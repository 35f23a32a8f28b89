import { useLocation } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { RequireRole } from '../../../app/guards';
import NotFoundPage from '../../not-found';
import Signatures from './signatures';
import Documents from './documents';
import NewDocument from './document-new';
import DocumentHistory from './document-history';
import DocumentVersion from './document-version';
import SigGeneral from './general';
import SigSmsContent from './sms-content';
import SigWebhooks from './webhooks';
import SigSigningPage from './signing';

// Document Signature's pages beyond the dashboard, in one lazy chunk (the console's entry pays
// for one import, not eight). The app area's router already matched the route (and its params);
// this picks the page by the same path. pdf.js stays out of it: the field editor imports it.

export default function DocumentSignaturePages({ app }: { app: AppDefinition }) {
  const [location] = useLocation();
  const parts = location.replace(/^\/|\/$/g, '').split('/');
  const path = parts.join('/');
  if (path === 'signatures') return <Signatures app={app} />;
  // Documents are for admins, like the tab that leads to them
  if (path === 'documents')
    return (
      <RequireRole role="admin">
        <Documents app={app} />
      </RequireRole>
    );
  if (path === 'documents/new')
    return (
      <RequireRole role="admin">
        <NewDocument app={app} />
      </RequireRole>
    );
  if (parts[0] === 'documents' && parts.length === 3)
    return (
      <RequireRole role="admin">
        {parts[2] === 'history' ? <DocumentHistory app={app} /> : <DocumentVersion app={app} />}
      </RequireRole>
    );
  if (path === 'settings/general') return <SigGeneral app={app} />;
  if (path === 'settings/sms-content') return <SigSmsContent app={app} />;
  if (path === 'settings/webhooks') return <SigWebhooks app={app} />;
  // certificates and their keys are for admins, like the API behind them
  if (path === 'settings/signing')
    return (
      <RequireRole role="admin">
        <SigSigningPage app={app} />
      </RequireRole>
    );
  return <NotFoundPage />;
}
