import type { AppDefinition } from '../../../../api/contract/apps';
import { PAYMENT_COLUMNS } from '../../../../api/contract/apps/payments';
import { Dashboard, type FirstTaskHelp } from '../_frame/Dashboard';
import { StripeStandInNotice } from '../_frame/subscribe';

const LATEST = PAYMENT_COLUMNS.filter((c) =>
  ['id', 'amount', 'status', 'product', 'customerRef', 'agent', 'createdAt'].includes(c.key),
);

export const FIRST_TASK: FirstTaskHelp = {
  actionLabel: 'Request a payment',
  curl: (origin) => `curl ${origin}/api/v1/payments \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"phoneNumber": "+15551234567", "customerRef": "CUST-1", "amount": 1250, "currency": "usd", "description": "Invoice 1001"}'

# amounts are in the currency's minor unit: 1250 is $12.50, 500 JPY is 500 yen`,
};

/** Without Stripe, "Send to a customer" says why and is switched off (the actions' `unavailable`): said once, there. */
export default function PaymentsDashboard({ app }: { app: AppDefinition }) {
  return (
    <>
      <StripeStandInNotice page />
      <Dashboard app={app} columns={LATEST} firstTask={FIRST_TASK} taskNoun="payments" />
    </>
  );
}
