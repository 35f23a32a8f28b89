import { NotBuiltYet } from '../../../ui/Card';

export default function BillingSettings() {
  return (
    <NotBuiltYet title="Billing">
      Plans, subscriptions and invoices for your apps. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
