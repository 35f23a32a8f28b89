import { shaped } from '../shapes';
import { StripeError } from '../protocol';
import type { PeerCore } from './core';

export function meterEvents({ route, meterIdentifiers, meterEvents: sent, id, now }: PeerCore): void {
  route('POST', '/v1/billing/meter_events', ({ body }) => {
    const identifier = String(body.identifier ?? id('mev'));
    if (!body.event_name) throw new StripeError(400, 'parameter_missing', 'event_name is required');
    if (meterIdentifiers.has(identifier))
      throw new StripeError(400, 'resource_already_exists', `An event already exists with identifier ${identifier}.`);
    meterIdentifiers.add(identifier);
    const event = shaped({
      id: identifier,
      object: 'billing.meter_event',
      identifier,
      event_name: body.event_name,
      payload: body.payload,
      timestamp: Number(body.timestamp ?? now()),
      created: now(),
      livemode: false,
    });
    sent.push(event);
    return event;
  });
}
