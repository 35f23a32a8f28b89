import type { PeerCore } from './core';

// Prices, so invoices carry amounts: tests create the prices they configure.

export function prices({ route, put, get, id, now }: PeerCore): void {
  route('GET', '/v1/prices/:id', ({ params }) => get(params.id, 'price'));
  route('POST', '/v1/prices', ({ body }) =>
    put({
      id: String(body.id ?? id('price')),
      object: 'price',
      created: now(),
      unit_amount: Number(body.unit_amount ?? 0),
      currency: body.currency ?? 'usd',
      recurring: body.recurring ?? null,
    }),
  );
}
