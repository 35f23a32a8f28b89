import { useAtomValue } from 'jotai';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import type { AppDefinition, AppId } from '../../../api/contract/apps';
import { useStartFreeTrial } from '../../api/billing';
import { RequireRole } from '../../app/guards';
import { bootstrapAtom } from '../../state/session';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { LoadingPanel } from '../../ui/Spinner';
import NotFoundPage from '../not-found';
import { AskAnAdmin, SubscribeButton, TrialTerms, useChangesBilling } from './_frame/subscribe';

type Page = LazyExoticComponent<ComponentType<{ app: AppDefinition }>>;

// Shared frame pages every billable app routes to (identity verification has neither).
const FRAME_PAGES: Record<string, Page> = {
  pricing: lazy(() => import('./_frame/Pricing')),
  'settings/billing': lazy(() => import('./_frame/Billing')),
};

// Shared pages of every app that has the route (billable or not): the account's storage settings.
const SHARED_PAGES: Record<string, Page> = {
  'settings/storage': lazy(() => import('./_frame/Storage')),
};

const DASHBOARDS: Record<AppId, Page> = {
  passkeys: lazy(() => import('./passkeys')),
  'document-signature': lazy(() => import('./document-signature')),
  'e-form': lazy(() => import('./e-form')),
  'one-time-passcode': lazy(() => import('./one-time-passcode')),
  payments: lazy(() => import('./payments')),
  'identity-verification': lazy(() => import('./identity-verification')),
};

const documentSignature = lazy(() => import('./document-signature/pages'));
const formBuilder = lazy(() => import('./e-form/form-builder'));

/**
 * A "new" route that becomes its record's route once the record exists: eForm's builder creates
 * the form on the first edit and then shows its address. One key and one page for both, so the
 * builder (what is typed, the focus) stays mounted when the address gets the id.
 */
const BECOMES: Partial<Record<AppId, Record<string, string>>> = { 'e-form': { 'forms/new': 'forms/:id' } };

/** The pages of each app beyond its dashboard, by route (a unit test holds every route of `APPS` to one). */
const PAGES: Partial<Record<AppId, Record<string, Page>>> = {
  // one lazy chunk for all of them: each lazy() costs the entry bytes, one costs them once
  'document-signature': Object.fromEntries(
    [
      'signatures',
      'documents',
      'documents/new',
      'documents/:id/history',
      'documents/:id/:version',
      'settings/general',
      'settings/sms-content',
      'settings/webhooks',
      'settings/signing',
    ].map((r) => [r, documentSignature]),
  ),
  'one-time-passcode': {
    authentications: lazy(() => import('./one-time-passcode/authentications')),
    'settings/general': lazy(() => import('./one-time-passcode/general')),
    'settings/sms-content': lazy(() => import('./one-time-passcode/sms-content')),
    'settings/webhooks': lazy(() => import('./one-time-passcode/webhooks')),
  },
  passkeys: {
    activity: lazy(() => import('./passkeys/activity')),
    enrollments: lazy(() => import('./passkeys/enrollments')),
    'settings/general': lazy(() => import('./passkeys/general')),
    'settings/sms-content': lazy(() => import('./passkeys/sms-content')),
    'settings/webhooks': lazy(() => import('./passkeys/webhooks')),
  },
  'identity-verification': {
    verifications: lazy(() => import('./identity-verification/verifications')),
    'settings/general': lazy(() => import('./identity-verification/general')),
    'settings/sms-content': lazy(() => import('./identity-verification/sms-content')),
    'settings/webhooks': lazy(() => import('./identity-verification/webhooks')),
  },
  'e-form': {
    submissions: lazy(() => import('./e-form/submissions')),
    forms: lazy(() => import('./e-form/forms')),
    'forms/new': formBuilder,
    'forms/:id': formBuilder,
    'settings/general': lazy(() => import('./e-form/general')),
    'settings/sms-content': lazy(() => import('./e-form/sms-content')),
    'settings/webhooks': lazy(() => import('./e-form/webhooks')),
  },
  payments: {
    payments: lazy(() => import('./payments/payments')),
    products: lazy(() => import('./payments/products')),
    'settings/stripe': lazy(() => import('./payments/stripe')),
    'settings/stripe/callback': lazy(() => import('./payments/stripe-callback')),
    'settings/general': lazy(() => import('./payments/general')),
    'settings/sms-content': lazy(() => import('./payments/sms-content')),
    'settings/webhooks': lazy(() => import('./payments/webhooks')),
  },
};

/** The page an app's route shows; undefined only for a route no page serves (a test forbids it). */
export function pageFor(app: AppDefinition, route: string): Page | undefined {
  if (route === '' || route === 'dashboard') return DASHBOARDS[app.id];
  return PAGES[app.id]?.[route] ?? SHARED_PAGES[route] ?? (app.billable ? FRAME_PAGES[route] : undefined);
}

function AppPage({ app, route }: { app: AppDefinition; route: string }) {
  const Page = pageFor(app, route);
  const page = Page ? <Page app={app} /> : <NotFoundPage />;
  // Configuration is for admins, like the Configuration tab that leads to it.
  return route.startsWith('settings/') ? <RequireRole role="admin">{page}</RequireRole> : page;
}

/** An app that isn't started yet: its pages wait behind a free-trial offer (pricing stays open). */
function NotStarted({ app, trialUsed }: { app: AppDefinition; trialUsed: boolean }) {
  const startFreeTrial = useStartFreeTrial();
  const changesBilling = useChangesBilling();
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{app.title}</h1>
      <Card>
        <p>{app.description}</p>
        {!changesBilling ? (
          <>
            <p className="muted">
              {trialUsed ? `The free trial of ${app.title} has ended.` : `${app.title} is inactive on your account.`}
            </p>
            <AskAnAdmin what={trialUsed ? 'subscribe to it' : 'start its free trial'} />
          </>
        ) : trialUsed ? (
          <>
            <p className="muted">The free trial of {app.title} has ended. Subscribe to keep using it.</p>
            <SubscribeButton app={app} reason />
          </>
        ) : (
          <>
            <p className="muted">{app.title} is inactive on your account. Start a free trial to use it.</p>
            <Button variant="primary" onClick={() => startFreeTrial(app.id)} successLabel="Trial started">
              Start Free Trial
            </Button>
            <TrialTerms app={app.id} />
          </>
        )}
        {app.billable && (
          <p>
            <Link href="/pricing">See pricing</Link>
          </p>
        )}
      </Card>
    </div>
  );
}

/** A cancelled app still opens (its history stays readable) under a clear notice. */
function BillingNotices({
  app,
  status,
  paymentFailed,
}: {
  app: AppDefinition;
  status: string | undefined;
  paymentFailed: boolean;
}) {
  if (status === 'cancelled') {
    return (
      <div className="notice notice-warning app-notice" role="status">
        {app.title} is cancelled: its history stays readable, new tasks are refused.{' '}
        <SubscribeButton app={app} size="sm" reason />
      </div>
    );
  }
  if (paymentFailed) {
    return (
      <div className="notice notice-error app-notice" role="alert">
        The last payment for {app.title} failed. It keeps working while Stripe retries:{' '}
        <Link href="~/settings/billing">update the payment method</Link>.
      </div>
    );
  }
  return null;
}

/** One app's pages, inside the app's nest: paths here are relative to the app's root. */
export default function AppArea({ app }: { app: AppDefinition }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  const [location] = useLocation();
  const billing = bootstrap?.billing[app.id];
  const inactive = billing?.status === 'inactive';
  if (inactive && location !== '/pricing') return <NotStarted app={app} trialUsed={!!billing?.trialEndsAt} />;
  const onBillingPage = location === '/pricing' || location === '/settings/billing';
  return (
    <Suspense fallback={<LoadingPanel />}>
      {!onBillingPage && <BillingNotices app={app} status={billing?.status} paymentFailed={!!billing?.paymentFailed} />}
      <Switch>
        {app.routes.map((route) => (
          <Route key={BECOMES[app.id]?.[route] ?? route} path={`/${route}`}>
            <AppPage app={app} route={route} />
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
