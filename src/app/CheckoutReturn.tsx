import { useSetAtom } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { getApp, isAppId } from '../../api/contract/apps';
import type { BillingApp } from '../../api/contract/billing';
import { errorMessage } from '../api/client';
import { useApi } from '../api/hooks';
import { setAppBillingAtom } from '../state/session';
import { toast } from '../ui/Toast';

// Stripe Checkout sends the admin back to the page Subscribe was pressed on (Settings > Billing,
// an app's pricing or billing page, Home), with `?checkout=success&checkout_app=…&session_id=…`. Whatever
// that page is, the session is read back from Stripe (POST …/checkout/confirm, never trusted
// from the address) before the page shows, so the page opens on the subscription as it now is,
// and a toast says what happened. A cancelled checkout comes back to the same page and is said too.

export function CheckoutReturn({ children }: { children: ReactNode }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const api = useApi();
  const setAppBilling = useSetAtom(setAppBillingAtom);
  const params = new URLSearchParams(search);
  const outcome = params.get('checkout');
  // not `app`: that parameter is the sign-in flow's app start
  const app = params.get('checkout_app') ?? '';
  const sessionId = params.get('session_id');
  const returning = (outcome === 'success' && !!sessionId) || outcome === 'cancelled';
  const [confirming, setConfirming] = useState(returning);

  useEffect(() => {
    if (!returning) {
      setConfirming(false);
      return;
    }
    setConfirming(true);
    const title = isAppId(app) ? getApp(app)!.title : 'the app';
    const done = () => {
      setConfirming(false);
      navigate(location, { replace: true });
    };
    if (outcome === 'cancelled' || !isAppId(app)) {
      if (outcome === 'cancelled') toast.success('Checkout cancelled', `Nothing was charged: ${title} is as it was.`);
      done();
      return;
    }
    let live = true;
    api.post<BillingApp>(`${app}/billing/checkout/confirm`, { sessionId }).then(
      (billing) => {
        if (!live) return;
        setAppBilling({
          app,
          billing: {
            status: billing.status,
            trialEndsAt: billing.trialEndsAt,
            usage: billing.usage,
            paymentFailed: billing.paymentFailed,
          },
        });
        if (billing.status === 'subscription') toast.success(`Subscribed to ${title}`, 'Thank you: the subscription is active.');
        else
          toast.success('Payment received', `Stripe is still confirming the ${title} subscription: it shows here once it has.`);
        done();
      },
      (error) => {
        if (!live) return;
        toast.error('Could not confirm the subscription', errorMessage(error, 'Please try again later'), error);
        done();
      },
    );
    return () => {
      live = false;
    };
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps

  if (confirming) {
    return (
      <div className="page page-narrow">
        <p className="notice" role="status">
          Confirming your subscription with Stripe…
        </p>
      </div>
    );
  }
  return <>{children}</>;
}
