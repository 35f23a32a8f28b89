import { escapeHtml } from '../../http/escape-html';
import type { StripeObject } from '../protocol';
import { standInPage } from '../stand-in-page';
import { HTML, MONTH_S, type PeerCore } from './core';

export type Invoices = {
  /** a subscription's invoice for the month from `start`, paid or left open (a failed payment) */
  newInvoice(sub: StripeObject, status: 'paid' | 'open', start: number): StripeObject;
};

export function invoices({ route, hosted, objects, put, get, list, id, url }: PeerCore): Invoices {
  route('GET', '/v1/invoices', ({ query }) => {
    const customer = query.get('customer');
    const data = [...objects.values()]
      .filter((o) => o.object === 'invoice' && (!customer || o.customer === customer))
      .sort((a, b) => Number(b.created) - Number(a.created));
    return list(data, '/v1/invoices');
  });
  route('GET', '/v1/invoices/:id', ({ params }) => get(params.id, 'invoice'));
  // the hosted invoice page (and its "PDF")
  hosted(/^\/invoices\/([^/.]+)(\.pdf)?$/, (m) => ({ status: 200, headers: HTML, body: invoicePage(get(m[1]!, 'invoice')) }));

  return {
    newInvoice(sub, status, start) {
      const invoiceId = id('in');
      const price = objects.get(String((sub.items as { data: { price: { id: string } }[] }).data[0].price.id));
      const amount = Number(price?.unit_amount ?? 4900);
      return put({
        id: invoiceId,
        object: 'invoice',
        customer: sub.customer,
        created: start,
        currency: 'usd',
        amount_due: amount,
        amount_paid: status === 'paid' ? amount : 0,
        status,
        invoice_pdf: `${url()}/invoices/${invoiceId}.pdf`,
        hosted_invoice_url: `${url()}/invoices/${invoiceId}`,
        period_start: start,
        period_end: start + MONTH_S,
        parent: {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: { subscription: sub.id, metadata: sub.metadata },
        },
      });
    },
  };
}

function invoicePage(invoice: StripeObject): string {
  return standInPage(
    'Invoice',
    `<h1>Invoice ${escapeHtml(invoice.id)}</h1><p>$${(Number(invoice.amount_due) / 100).toFixed(2)} ${escapeHtml(String(invoice.currency).toUpperCase())}, ${escapeHtml(String(invoice.status))}.</p>`,
  );
}
