import { StripeError, type StripeObject } from '../protocol';
import { MONTH_S, type PeerCore } from './core';
import type { Invoices } from './invoices';

export type SubscriptionObject = StripeObject & { items: { data: Record<string, unknown>[] }; metadata: Record<string, string> };

export type Subscriptions = {
  /** the next period of a subscription begins and its invoice is paid (or fails) */
  renew(subscriptionId: string, outcome?: 'paid' | 'failed'): Promise<void>;
  /** Stripe ends the subscription (end of period after cancel, or retries exhausted) */
  endSubscription(subscriptionId: string): Promise<void>;
};

export function subscriptions({ route, get, now, emit }: PeerCore, { newInvoice }: Invoices): Subscriptions {
  const subscriptionOf = (oid: string) => get(oid, 'subscription') as SubscriptionObject;

  route('GET', '/v1/subscriptions/:id', ({ params }) => subscriptionOf(params.id));
  route('POST', '/v1/subscriptions/:id', async ({ params, body }) => {
    const sub = subscriptionOf(params.id);
    if (sub.status === 'canceled')
      throw new StripeError(
        400,
        'resource_missing',
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
    if (body.metadata) sub.metadata = { ...sub.metadata, ...(body.metadata as Record<string, string>) };
    await emit('customer.subscription.updated', sub);
    return sub;
  });
  route('DELETE', '/v1/subscriptions/:id', async ({ params }) => {
    const sub = subscriptionOf(params.id);
    Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now(), cancel_at_period_end: false });
    await emit('customer.subscription.deleted', sub);
    return sub;
  });

  return {
    async renew(subscriptionId, outcome = 'paid') {
      const sub = subscriptionOf(subscriptionId);
      const items = sub.items.data as { current_period_start: number; current_period_end: number }[];
      const start = items[0].current_period_end;
      for (const item of items) Object.assign(item, { current_period_start: start, current_period_end: start + MONTH_S });
      sub.status = outcome === 'paid' ? 'active' : 'past_due';
      const invoice = newInvoice(sub, outcome === 'paid' ? 'paid' : 'open', start);
      await emit('customer.subscription.updated', sub);
      await emit(outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
    },
    async endSubscription(subscriptionId) {
      const sub = subscriptionOf(subscriptionId);
      Object.assign(sub, { status: 'canceled', ended_at: now(), canceled_at: now(), cancel_at_period_end: false });
      await emit('customer.subscription.deleted', sub);
    },
  };
}
