import { Link } from 'wouter';
import type { StripeConnection } from '../../../../api/contract/apps/payments';
import { useQuery } from '../../../api/hooks';

/** The account's Stripe connection, shared by the pages that need it. */
export function useStripeConnection() {
  return useQuery('payments:stripe', (a, signal) => a.get<StripeConnection>('/payments/stripe', { signal }));
}

/** Said wherever Stripe is needed and not connected: what to do, and who can do it. */
export function NotConnected({ what }: { what: string }) {
  return (
    <div className="notice notice-warning" role="status">
      <p>
        <strong>Connect your Stripe account to {what}.</strong> Payments are made on your own Stripe account: customers pay you directly, and your products
        and prices live there.
      </p>
      <p>
        An admin connects it under <Link href="/settings/stripe">Configuration &gt; Stripe</Link> with <em>Connect with Stripe</em> (you sign in to Stripe, or
        create an account, and approve the connection).
      </p>
    </div>
  );
}
