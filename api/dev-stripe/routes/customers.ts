import crypto from 'node:crypto';
import type { PeerCore } from './core';

export function customers({ route, put, get, id, now }: PeerCore): void {
  route('POST', '/v1/customers', ({ body }) =>
    put({
      id: id('cus'),
      object: 'customer',
      created: now(),
      email: body.email ?? null,
      name: body.name ?? null,
      metadata: body.metadata ?? {},
      invoice_prefix: crypto.randomBytes(4).toString('hex').toUpperCase(),
    }),
  );
  route('GET', '/v1/customers/:id', ({ params }) => get(params.id, 'customer'));
  route('POST', '/v1/customers/:id', ({ params, body }) => Object.assign(get(params.id, 'customer'), body));
}
