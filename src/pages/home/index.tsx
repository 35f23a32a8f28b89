import { useAtomValue } from 'jotai';
import type { ComponentType, CSSProperties } from 'react';
import { Link } from 'wouter';
import type { AppDefinition, AppId } from '../../../api/contract/apps';
import type { Usage } from '../../../api/contract/billing';
import type { BillingStatus } from '../../../api/contract/common';
import { BILLING_STATUS_LABEL } from '../../../api/contract/wording';
import { useStartFreeTrial, useSubscribe } from '../../api/billing';
import { useVisibleApps } from '../../app/current-app';
import { bootstrapAtom } from '../../state/session';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/Card';
import { AskAnAdmin, TrialTerms, useChangesBilling } from '../apps/_frame/subscribe';
import { formatNumber } from '../../ui/format';
import { CardIcon, FormIcon, IdCardIcon, KeyIcon, PasscodeIcon, SignatureIcon } from '../../ui/icons';
import { hasRole } from '../../state/roles';

/** Each app's icon on its card (src/ui/icons.tsx): no two apps share one. */
const APP_ICONS: Record<AppId, ComponentType<{ size?: number }>> = {
  passkeys: KeyIcon,
  'document-signature': SignatureIcon,
  'e-form': FormIcon,
  'one-time-passcode': PasscodeIcon,
  payments: CardIcon,
  'identity-verification': IdCardIcon,
};

/** Credits used this period, as the header's credit info says them (owners and admins only). */
function CardUsage({ usage }: { usage: Usage }) {
  const text =
    usage.freeTier > 0
      ? `${formatNumber(usage.credits)} of ${formatNumber(usage.freeTier)} credits used this period`
      : `${formatNumber(usage.credits)} credits used this period`;
  return (
    <p className={`app-card-usage${usage.status === 'ok' ? '' : ' credit-warning'}`} data-testid="app-card-usage">
      {text}
    </p>
  );
}

function AppCard({
  app,
  status,
  trialUsed,
  usage,
}: {
  app: AppDefinition;
  status: BillingStatus;
  trialUsed: boolean;
  usage?: Usage;
}) {
  const Icon = APP_ICONS[app.id];
  const startFreeTrial = useStartFreeTrial();
  const subscribe = useSubscribe();
  const changesBilling = useChangesBilling();
  const titleId = `app-card-${app.id}`;
  return (
    <li className="app-card card" style={{ '--app-color': app.color } as CSSProperties} aria-labelledby={titleId}>
      <div className="app-card-head">
        <span className="app-card-icon" aria-hidden="true">
          <Icon size={20} />
        </span>
        <span className={`badge badge-${status}`}>{BILLING_STATUS_LABEL[status]}</span>
      </div>
      <h2 id={titleId} className="app-card-title">
        {app.title}
        {!app.released && <span className="badge badge-neutral">Preview</span>}
      </h2>
      <p className="muted app-card-description">{app.description}</p>
      <div className="app-card-action">
        {status === 'inactive' && !changesBilling ? (
          <AskAnAdmin what={trialUsed ? 'subscribe to it' : 'start its free trial'} />
        ) : status === 'inactive' && trialUsed ? (
          // the free trial has ended: the way on is a subscription
          <Button
            variant="primary"
            onClick={() => subscribe(app.id)}
            successLabel="Opening checkout…"
            aria-label={`Subscribe to ${app.title}`}
          >
            Subscribe
          </Button>
        ) : status === 'inactive' ? (
          <>
            <Button variant="primary" onClick={() => startFreeTrial(app.id)} successLabel="Trial started">
              Start Free Trial
            </Button>
            {app.billable && <TrialTerms app={app.id} />}
          </>
        ) : (
          <Link href={`/${app.id}`} className="btn btn-primary" aria-label={`Launch app ${app.title}`}>
            Launch app
          </Link>
        )}
        {usage && <CardUsage usage={usage} />}
        {app.billable && (
          <Link href={`/${app.id}/pricing`} className="btn btn-ghost" aria-label={`Pricing of ${app.title}`}>
            Pricing
          </Link>
        )}
      </div>
    </li>
  );
}

/** The app picker: a card per app this user may see. */
export default function HomePage() {
  const bootstrap = useAtomValue(bootstrapAtom);
  const apps = useVisibleApps();
  if (!bootstrap) return null;
  // credit info is for owners and admins (SPEC 6): supervisors see no usage on the cards
  const seesUsage = hasRole(bootstrap.role, 'admin');
  return (
    <div className="page">
      <h1 className="page-title">Welcome, {bootstrap.firstName}</h1>
      <p className="muted page-lead">Choose an app to manage for {bootstrap.account.name}.</p>
      {apps.length ? (
        <ul className="app-grid">
          {apps.map((app) => (
            <AppCard
              key={app.id}
              app={app}
              status={bootstrap.billing[app.id]?.status ?? 'inactive'}
              trialUsed={!!bootstrap.billing[app.id]?.trialEndsAt}
              usage={
                seesUsage && (bootstrap.billing[app.id]?.status ?? 'inactive') !== 'inactive'
                  ? bootstrap.billing[app.id]?.usage
                  : undefined
              }
            />
          ))}
        </ul>
      ) : (
        <EmptyState title="No apps available">Contact sales to add apps to your account.</EmptyState>
      )}
    </div>
  );
}
