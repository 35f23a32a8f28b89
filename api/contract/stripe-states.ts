// The states of Stripe on this server and in this account, said in one set of words: the API's
// error messages, the Payments dashboard, Configuration > Stripe, "Request a payment" (console and
// Agent Preview), Settings > Billing and each app's billing page all take their sentence from
// here. Each sentence says what is missing and who can fix it: the provider who runs this server
// (its operator: a server setting) or an admin of the account (a step in the console). Plain
// values only, so any lazy page can import it without pulling schemas along.

export { isStateCode, STATE_CODES, type StateCode } from './state-codes';
import type { StateCode } from './state-codes';

/** Who can change a state: the provider's operator (a server setting) or the account's admins. */
export const STATE_OWNER: Record<StateCode, 'operator' | 'admin'> = {
  STRIPE_CONNECT_NOT_CONFIGURED: 'operator',
  STRIPE_NOT_CONNECTED: 'admin',
  STRIPE_ACCESS_REVOKED: 'admin',
  BILLING_NOT_CONFIGURED: 'operator',
};

/** The one sentence for each state, wherever it shows. */
export const STATE_MESSAGES: Record<StateCode, string> = {
  STRIPE_CONNECT_NOT_CONFIGURED:
    'Payments cannot take money on this server yet: Stripe Connect is not set up here. Only the provider who runs this server can set it up; nothing in this account can change that.',
  STRIPE_NOT_CONNECTED:
    'No Stripe account is connected yet. An admin of this account connects one under Payments > Configuration > Stripe.',
  STRIPE_ACCESS_REVOKED:
    'Stripe no longer lets us act for the connected account. An admin of this account connects it again under Payments > Configuration > Stripe.',
  BILLING_NOT_CONFIGURED:
    'Subscribing is not possible on this server: the provider who runs it has not set up Stripe billing. Free trials and the credits they include keep working.',
};
