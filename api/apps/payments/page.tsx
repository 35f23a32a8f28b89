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
  const { t } = link;
  const company = branding.name;
  const row = await markOpened(deps, link.accountId, link.taskId!);
  // the amount as the caller writes amounts (1.234,56 € in German, R$ 1.234,56 in Brazil)
  const amount = formatMinor(Number(row.amount), row.currency, link.pageLocale);
  const paid = row.status === 'succeeded' || row.status === 'partially_refunded' || row.status === 'refunded';
  if (paid) {
    return {
      title: t('pay.received.title'),
      body: <p>{t('pay.received.text', { company, amount, description: row.description })}</p>,
    };
  }
  if (row.status === 'expired') return { title: t('pay.expired.title'), body: <p>{t('pay.expired.text', { company })}</p> };
  const returned = c.req.query('from') === 'stripe';
  return {
    title: t('pay.title', { amount }),
    body: (
      <div>
        <p>{t('pay.asks', { company, amount, description: row.description })}</p>
        {row.status === 'failed' && row.failure_reason && <p role="alert">{t('pay.failed', { reason: row.failure_reason })}</p>}
        {returned && <p role="status">{t('pay.returned')}</p>}
        {deps.config.devStripe && <p role="note">{t('pay.standIn')}</p>}
        <p>{t('pay.stripe', { company })}</p>
        {row.checkout_url ? (
          <p>
            <a href={row.checkout_url} rel="noreferrer">
              <strong>{t('pay.button', { amount })}</strong>
            </a>
          </p>
        ) : (
          <p>{t('pay.closed')}</p>
        )}
      </div>
    ),
  };
});
