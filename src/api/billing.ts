import { useSetAtom } from 'jotai';
import { useLocation } from 'wouter';
import type { AppId } from '../../api/contract/apps';
import type { AppBilling } from '../../api/contract/billing';
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
      const { url } = await api.create<{ url: string }>(`${app}/billing/checkout`, {});
      window.location.assign(url);
    } catch (error) {
      toast.error('Could not start the subscription', errorMessage(error, 'Please try again later'), error);
      throw error;
    }
  };
}
