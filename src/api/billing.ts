import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { AppId } from '../../api/contract/apps';
import type { AppBilling, SubscriptionPrice, SubscriptionPricesAnswer } from '../../api/contract/billing';
import { setAppBillingAtom } from '../state/session';
import { toast } from '../ui/Toast';
import { errorMessage } from './client';
import { useApi } from './hooks';

/** Starts an app's free trial, takes the answer as the app's billing, then opens the app. */
export function useStartFreeTrial(): (app: AppId) => Promise<void> {
  const api = useApi();
  const setAppBilling = useSetAtom(setAppBillingAtom);
  const [, navigate] = useLocation();
  return async (app) => {
    try {
      const billing = await api.create<AppBilling>(`${app}/billing/free-trial`, {});
      setAppBilling({ app, billing });
      navigate(`~/${app}`);
    } catch (error) {
      toast.error('Could not start the free trial', errorMessage(error, 'Please try again later'), error);
      throw error;
    }
  };
}

/** Sends the browser to Stripe Checkout for the app's subscription (the API answers where). */
export function useSubscribe(): (app: AppId) => Promise<void> {
  const api = useApi();
  return async (app) => {
    try {
      // Stripe sends the admin back to this page, where the console confirms the checkout
      const { url } = await api.create<{ url: string }>(`${app}/billing/checkout`, { returnTo: window.location.pathname });
      window.location.assign(url);
    } catch (error) {
      toast.error('Could not start the subscription', errorMessage(error, 'Please try again later'), error);
      throw error;
    }
  };
}

// What Checkout charges never changes for a Stripe price, so the console asks once per page load
// (every Subscribe on a screen shares the answer); a failed read is asked again next time.
let pricesRead: Promise<SubscriptionPrice[]> | null = null;

/** The price Checkout will charge for the app (from its Stripe price); undefined until known or when unknown. */
export function useSubscriptionPrice(app: AppId, enabled = true): SubscriptionPrice | undefined {
  const api = useApi();
  const [price, setPrice] = useState<SubscriptionPrice | undefined>();
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const read = (pricesRead ??= api.get<SubscriptionPricesAnswer>('/billing/prices').then((a) => a.prices));
    read.then(
      (prices) => live && setPrice(prices.find((p) => p.app === app)),
      () => {
        if (pricesRead === read) pricesRead = null;
      },
    );
    return () => {
      live = false;
    };
  }, [api, app, enabled]);
  return price;
}

/** "$129.00 a month": a price as Checkout will charge it. */
export function formatSubscriptionPrice(price: SubscriptionPrice): string {
  const amount = (price.amountCents / 100).toFixed(2);
  const money = price.currency === 'usd' ? `$${amount}` : `${amount} ${price.currency.toUpperCase()}`;
  return price.interval ? `${money} a ${price.interval}` : money;
}
