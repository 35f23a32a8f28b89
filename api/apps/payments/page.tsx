/** @jsxImportSource hono/jsx */
import type { Deps } from '../../deps';
import { registerCustomerPage } from '../../customer-pages/frame';
import { formatMinor } from '../../contract/money';
import { markOpened, PAY_PURPOSE } from './service';

// The page the SMS link opens: in the account's branding, the amount and what it is for, and a
// button to Stripe's own Checkout page (card details are typed there, never here). Stripe sends
// the customer back to this same link, which then says how it went.

registerCustomerPage(PAY_PURPOSE, async (c, link, branding) => {
  const deps = (c.var as { deps: Deps }).deps;
  const row = await markOpened(deps, link.accountId, link.taskId!);
  const money = formatMinor(Number(row.amount), row.currency, 'en-US');
  const paid = row.status === 'succeeded' || row.status === 'partially_refunded' || row.status === 'refunded';
  if (paid) {
    return { title: 'Payment received', body: <p>Thank you: {branding.name} received your payment of {money} for {row.description}.</p> };
  }
  if (row.status === 'expired') return { title: 'This payment link has expired', body: <p>Nothing was charged. Ask {branding.name} for a new link.</p> };
  const returned = c.req.query('from') === 'stripe';
  return {
    title: `Pay ${money}`,
    body: (
      <div>
        <p>
          {branding.name} asks you to pay <strong>{money}</strong> for {row.description}.
        </p>
        {row.status === 'failed' && row.failure_reason && <p role="alert">The last attempt did not go through: {row.failure_reason}. You can try again.</p>}
        {returned && <p role="status">If you just paid, your payment is being confirmed: refresh this page in a moment.</p>}
        <p>You pay on Stripe's secure page; {branding.name} never sees your card number.</p>
        {row.checkout_url ? (
          <p>
            <a href={row.checkout_url} rel="noreferrer">
              <strong>Pay {money} by card</strong>
            </a>
          </p>
        ) : (
          <p>This payment cannot be made any more.</p>
        )}
      </div>
    ),
  };
});
