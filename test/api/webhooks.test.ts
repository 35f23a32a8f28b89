import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { Received } from './peers';
import { deliverWebhooksOnce } from '../../api/integrations/webhooks';
import { useLoopbackReceiver } from '../support/loopback-receiver';

// Signatures are checked with Stripe's published verification (not our code): the scheme is
// the same, so customers can use Stripe's libraries or ten lines of their own.
const stripe = new Stripe('sk_test_unused');

async function webhookSecret(t: TestContext): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' });
  return ((await res.json()) as { webhookSecret: string }).webhookSecret;
}

function verify(t: TestContext, r: Received, secret: string) {
  return stripe.webhooks.constructEvent(
    r.body,
    String(r.headers['x-signature']),
    secret,
    300,
    undefined,
    Math.floor(t.clock.now.getTime() / 1000),
  );
}

describe.each(DATABASE_KINDS)('Webhooks (%s)', (kind) => {
  const { overrides, receiver } = useLoopbackReceiver();
  const t = useTestContext(kind, overrides);
  let endpointId: string;
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    const res = await t.call('POST', '/one-time-passcode/webhooks', {
      as: 'owner@acme.test',
      body: { url: `${receiver.url}/hooks`, eventTypes: ['otp.sent', 'otp.verified'] },
    });
    expect(res.status).toBe(201);
    endpointId = ((await res.json()) as { id: string }).id;
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.handle((_req, res) => res.end('ok'));
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    await t.db.system((trx) =>
      sql`update webhook_endpoints set enabled = true, disabled_reason = null, failing_since = null`.execute(trx),
    );
  });

  const sendPasscode = (phoneNumber: string) =>
    t.call('POST', '/one-time-passcode/actions/send', {
      as: 'owner@acme.test',
      body: { input: { phoneNumber, customerRef: 'WH-1' } },
    });

  it('a sent passcode reaches the endpoint signed so that Stripe’s verification accepts it, without the code', async () => {
    const sent = await sendPasscode('+14155559001');
    expect(sent.status).toBe(201);
    expect(await deliverWebhooksOnce(t.deps)).toBe(1);
    const [request] = receiver.received;
    const event = verify(t, request!, await webhookSecret(t)) as unknown as {
      id: string;
      type: string;
      account: string;
      data: { status: string; phoneNumber: string };
    };
    expect(event).toMatchObject({
      type: 'otp.sent',
      account: t.account('acme').id,
      data: { status: 'pending', phoneNumber: '+1 •••• •• 9001' },
    });
    const outbox = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as { body: string }[];
    const code = outbox[0]!.body.match(/\b(\d{6})\b/)![1]!;
    expect(request!.body).not.toContain(code);
  });

  it('a receiver that fails is retried after 5 seconds, then succeeds once', async () => {
    let calls = 0;
    receiver.handle((_req, res) => {
      calls++;
      res.statusCode = calls === 1 ? 503 : 200;
      res.end(calls === 1 ? 'busy' : 'ok');
    });
    await sendPasscode('+14155559002');
    await deliverWebhooksOnce(t.deps);
    const [failed] = (await (
      await t.call('GET', `/one-time-passcode/webhooks/${endpointId}/deliveries`, { as: 'owner@acme.test' })
    ).json()) as { status: string; statusCode: number; nextRetryAt: string; attempt: number }[];
    expect(failed).toMatchObject({ status: 'pending', statusCode: 503, attempt: 1 });
    const wait = new Date(failed!.nextRetryAt).getTime() - t.clock.now.getTime();
    expect(wait).toBeGreaterThanOrEqual(4_500);
    expect(wait).toBeLessThanOrEqual(5_500);
    t.clock.now = new Date(t.clock.now.getTime() + 4_000);
    expect(await deliverWebhooksOnce(t.deps)).toBe(0);
    t.clock.now = new Date(t.clock.now.getTime() + 2_000);
    expect(await deliverWebhooksOnce(t.deps)).toBe(1);
    const [done] = (await (
      await t.call('GET', `/one-time-passcode/webhooks/${endpointId}/deliveries`, { as: 'owner@acme.test' })
    ).json()) as { status: string; attempt: number }[];
    expect(done).toMatchObject({ status: 'succeeded', attempt: 2 });
    expect(calls).toBe(2);
  });

  it('410 Gone turns the endpoint off with a notification', async () => {
    receiver.handle((_req, res) => {
      res.statusCode = 410;
      res.end('gone');
    });
    await sendPasscode('+14155559003');
    await deliverWebhooksOnce(t.deps);
    const [endpoint] = (await (await t.call('GET', '/one-time-passcode/webhooks', { as: 'owner@acme.test' })).json()) as {
      enabled: boolean;
      disabledReason: string;
    }[];
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    const notes = await t.db.system((trx) =>
      trx.selectFrom('notifications').select('title').where('kind', '=', 'webhook.disabled').execute(),
    );
    expect(notes.length).toBeGreaterThan(0);
  });

  it('jobs a crashed worker had leased are delivered after its lease runs out: nothing is lost', async () => {
    for (let i = 0; i < 5; i++) await sendPasscode(`+1415555910${i}`);
    // a worker took them and died before answering
    await t.db.system((trx) =>
      sql`update webhook_deliveries set attempts = attempts + 1, next_attempt_at = ${new Date(t.clock.now.getTime() + 60_000)} where state = 'pending'`.execute(
        trx,
      ),
    );
    expect(await deliverWebhooksOnce(t.deps)).toBe(0);
    t.clock.now = new Date(t.clock.now.getTime() + 61_000);
    expect(await deliverWebhooksOnce(t.deps)).toBe(5);
    expect(receiver.received).toHaveLength(5);
    const pending = await t.db.system((trx) =>
      sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where state = 'pending'`.execute(trx),
    );
    expect(pending.rows[0]!.n).toBe(0);
  });

  it('for 24 hours after the webhook secret is rotated, both the old and the new secret verify', async () => {
    const oldSecret = await webhookSecret(t);
    const rotated = await t.call('POST', '/accounts/developer/rotate', { as: 'owner@acme.test', body: { key: 'webhookSecret' } });
    const newSecret = ((await rotated.json()) as { webhookSecret: string }).webhookSecret;
    await sendPasscode('+14155559201');
    await deliverWebhooksOnce(t.deps);
    const request = receiver.received[0]!;
    expect(String(request.headers['x-signature']).match(/v1=/g)).toHaveLength(2);
    expect(verify(t, request, oldSecret)).toBeTruthy();
    expect(verify(t, request, newSecret)).toBeTruthy();
    receiver.received.length = 0;
    t.clock.now = new Date(t.clock.now.getTime() + 25 * 3600_000);
    await sendPasscode('+14155559202');
    await deliverWebhooksOnce(t.deps);
    const later = receiver.received[0]!;
    expect(verify(t, later, newSecret)).toBeTruthy();
    expect(() => verify(t, later, oldSecret)).toThrow();
  });

  it('"Send test event" queues a signed event that shows in the delivery log, and Resend sends it again', async () => {
    const queued = await t.call('POST', `/one-time-passcode/webhooks/${endpointId}/test`, { as: 'owner@acme.test' });
    expect(queued.status).toBe(201);
    await deliverWebhooksOnce(t.deps);
    const [delivery] = (await (
      await t.call('GET', `/one-time-passcode/webhooks/${endpointId}/deliveries`, { as: 'owner@acme.test' })
    ).json()) as { id: string; status: string; statusCode: number; responseExcerpt: string }[];
    expect(delivery).toMatchObject({ status: 'succeeded', statusCode: 200, responseExcerpt: 'ok' });
    expect(
      (await t.call('POST', `/one-time-passcode/webhooks/deliveries/${delivery!.id}/resend`, { as: 'owner@acme.test' })).status,
    ).toBe(201);
    await deliverWebhooksOnce(t.deps);
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!.body).id).toBe(JSON.parse(receiver.received[0]!.body).id);
  });

  it('an endpoint URL that is not https answers 400 naming the field', async () => {
    const res = await t.call('POST', '/one-time-passcode/webhooks', {
      as: 'owner@acme.test',
      body: { url: 'http://example.com/x', eventTypes: ['otp.sent'] },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields.url).toBe('URL must start with https://');
  });
});
