import { escapeHtml } from '../../http/escape-html';
import type { StripeObject } from '../protocol';
import { standInPage } from '../stand-in-page';
import { HTML, type PeerCore } from './core';

export function billingPortal({ route, hosted, objects, put, get, id, now, url }: PeerCore): void {
  route('POST', '/v1/billing_portal/sessions', ({ body }) => {
    get(String(body.customer), 'customer');
    const pid = id('bps');
    return put({
      id: pid,
      object: 'billing_portal.session',
      customer: body.customer,
      return_url: body.return_url ?? null,
      url: `${url()}/portal/${pid}`,
      created: now(),
    });
  });
  hosted(/^\/portal\/([^/]+)$/, (m) => ({
    status: 200,
    headers: HTML,
    body: portalPage(get(m[1]!, 'billing_portal.session'), objects),
  }));
}

function portalPage(portal: StripeObject, objects: Map<string, StripeObject>): string {
  const invoices = [...objects.values()].filter((o) => o.object === 'invoice' && o.customer === portal.customer);
  const rows = invoices
    .map(
      (i) =>
        `<li>${new Date(Number(i.created) * 1000).toISOString().slice(0, 10)}: $${(Number(i.amount_due) / 100).toFixed(2)}, ${escapeHtml(String(i.status))}</li>`,
    )
    .join('');
  return standInPage(
    'Billing portal',
    `<h1>Payment method and invoices</h1><p>The card on file is the test card <code>4242 4242 4242 4242</code>.</p>
<h2>Invoices</h2>${rows ? `<ul>${rows}</ul>` : '<p>No invoices yet.</p>'}
${portal.return_url ? `<p><a class="button" href="${escapeHtml(String(portal.return_url))}">Back to Switchboard</a></p>` : ''}`,
  );
}
