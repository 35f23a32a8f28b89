import { Link } from 'wouter';
import type { StripeConnection } from '../../../../api/contract/apps/payments';
import { STATE_MESSAGES, type StateCode } from '../../../../api/contract/stripe-states';
import { useQuery } from '../../../api/hooks';
import { useIsAdmin } from './role';

/** The account's Stripe connection, shared by the pages that need it. */
export function useStripeConnection() {
  return useQuery('payments:stripe', (a, signal) => a.get<StripeConnection>('/payments/stripe', { signal }));
}

/** Where Payments stands when it cannot take money, as a state code; null when it can. */
export function connectionState(connection: StripeConnection): StateCode | null {
  if (!connection.configured) return 'STRIPE_CONNECT_NOT_CONFIGURED';
  if (!connection.connected) return 'STRIPE_NOT_CONNECTED';
  return null;
}

/**
 * Said wherever Stripe is needed and missing, in the words of api/contract/stripe-states.ts (the
 * API's errors and "Request a payment" say the same): what is missing and who can fix it. The link
 * to Configuration > Stripe is offered only where its button is there to press.
 */
export function PaymentsState({ connection }: { connection: StripeConnection }) {
  const admin = useIsAdmin();
  const state = connectionState(connection);
  if (!state) return null;
  return (
    <div className="notice notice-warning" role="status" data-testid="payments-state" data-code={state}>
      <p>{STATE_MESSAGES[state]}</p>
      {state === 'STRIPE_NOT_CONNECTED' && admin && (
        <p>
          <Link href="/settings/stripe">Open Configuration &gt; Stripe</Link>
        </p>
      )}
    </div>
  );
}
