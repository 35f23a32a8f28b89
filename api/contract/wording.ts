import type { BillingStatus, Platform } from './common';

// The console's one vocabulary and number formatting for what the API and the UI both put into
// words, so a status or an amount reads the same in a notification, a card and a table.

/**
 * An app's billing status, as every screen names it (badges, cards, Watch Tower, notices). The
 * plan a status is on has its own names (PLAN_NAMES in plans.ts: Free trial, Subscription,
 * Enterprise): "Subscribed" is where an app stands, "Subscription" what it is on.
 */
export const BILLING_STATUS_LABEL: Record<BillingStatus, string> = {
  inactive: 'Inactive',
  'free-trial': 'Free trial',
  subscription: 'Subscribed',
  enterprise: 'Enterprise',
  cancelled: 'Cancelled',
};

/** How an account signs in, as Watch Tower names it in its list and on the account's page. */
export const PLATFORM_LABEL: Record<Platform, string> = {
  azure: 'Azure',
  google: 'Google',
  webex: 'Webex',
  zoom: 'Zoom',
  okta: 'Okta',
  oidc: 'OIDC',
};

/** "4,210 / 5,000": an amount against its limit. The server words it in en-US; the UI in the viewer's locale. */
export function formatUsage(used: number, limit: number, locale?: string): string {
  const n = new Intl.NumberFormat(locale);
  return `${n.format(used)} / ${n.format(limit)}`;
}
