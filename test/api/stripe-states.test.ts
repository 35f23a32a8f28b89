import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { addStripeConnect, connectServerEnv } from '../support/stripe-connect-peer';
import { STATE_MESSAGES } from '../../api/contract/stripe-states';
import type { AgentAppsAnswer, AppActionsAnswer } from '../../api/contract/platform';
import type { BillingOverview } from '../../api/contract/billing';
import type { Bootstrap } from '../../api/contract/session';

// One truthful state model: whether Payments can take money and whether subscribing is possible
// is said before anyone tries (the actions' `unavailable`, bootstrap's `subscribable`, the billing
// overview), in the same words the refusals carry (api/contract/stripe-states.ts).

const OWNER = 'owner@globex.test';
const json = async <T>(res: Response) => (await res.json()) as T;
const agent = (t: TestContext) =>
  t.deps.tokens.sign(
    {
      sub: 'agent:gil@globex.test',
      acc: t.account('globex').id,
      role: 'agent',
      root: false,
      ghost: false,
      email: 'gil@globex.test',
    },
    3600,
  );

describe.each(DATABASE_KINDS)('Stripe states without Stripe on the server (%s)', (kind) => {
  const t = useTestContext(kind);

  it('Request a payment is unavailable before anyone tries, for the console and the Agent Preview, in the words the refusal uses', async () => {
    const expected = { code: 'STRIPE_CONNECT_NOT_CONFIGURED', message: STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED };
    expect((await json<AppActionsAnswer>(await t.call('GET', '/payments/actions', { as: OWNER }))).unavailable).toEqual(expected);
    const apps = await json<AgentAppsAnswer>(await t.call('GET', '/agent/apps', { token: await agent(t) }));
    expect(apps.apps.find((a) => a.id === 'payments')!.unavailable).toEqual(expected);
    // an app that works has nothing to say
    expect(apps.apps.find((a) => a.id === 'one-time-passcode')!.unavailable).toBeUndefined();
    const refused = await t.call('POST', '/payments/actions/request', {
      as: OWNER,
      body: { input: { phoneNumber: '+14155550190', amount: '12.50', description: 'Deposit' } },
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ ...expected, requestId: refused.headers.get('x-request-id') });
  });

  it('nothing can be subscribed: bootstrap lists no app, each billing card says so, and Subscribe answers the same sentence', async () => {
    expect((await json<Bootstrap>(await t.call('GET', '/admins/bootstrap', { as: OWNER }))).subscribable).toEqual([]);
    const overview = await json<BillingOverview>(await t.call('GET', '/billing', { as: OWNER }));
    expect(overview.apps.every((a) => !a.subscribable)).toBe(true);
    const res = await t.call('POST', '/document-signature/billing/checkout', { as: OWNER });
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'BILLING_NOT_CONFIGURED',
      message: STATE_MESSAGES.BILLING_NOT_CONFIGURED,
    });
  });
});

describe.each(DATABASE_KINDS)('Stripe states with Stripe set up on the server (%s)', (kind) => {
  const raw: Record<string, string> = {};
  let peer: StripePeer;
  beforeAll(async () => {
    peer = await startStripePeer({ webhookSecret: 'whsec_states', secretKeys: ['sk_test_states'] });
    addStripeConnect(peer, { clientId: 'ca_states', webhookSecret: 'whsec_states_connect', deliver: async () => 200 });
    // billing with a price for One-Time Passcode only
    Object.assign(raw, connectServerEnv(peer, 'ca_states', 'whsec_states_connect'), {
      STRIPE_SECRET_KEY: 'sk_test_states',
      STRIPE_WEBHOOK_SECRET: 'whsec_states',
      STRIPE_API_BASE: peer.url,
      STRIPE_PRICE_ONE_TIME_PASSCODE: 'price_otp_states',
    });
  });
  afterAll(async () => peer?.close());
  const t = useTestContext(kind, { raw } as never);

  it('before the account connects Stripe, Request a payment says an admin of the account connects it', async () => {
    expect((await json<AppActionsAnswer>(await t.call('GET', '/payments/actions', { as: OWNER }))).unavailable).toEqual({
      code: 'STRIPE_NOT_CONNECTED',
      message: STATE_MESSAGES.STRIPE_NOT_CONNECTED,
    });
  });

  it('only an app with a price can be subscribed, and only its Subscribe is offered', async () => {
    expect((await json<Bootstrap>(await t.call('GET', '/admins/bootstrap', { as: OWNER }))).subscribable).toEqual([
      'one-time-passcode',
    ]);
    const overview = await json<BillingOverview>(await t.call('GET', '/billing', { as: OWNER }));
    expect(overview.apps.filter((a) => a.subscribable).map((a) => a.app)).toEqual(['one-time-passcode']);
    const res = await t.call('POST', '/document-signature/billing/checkout', { as: OWNER });
    expect(((await res.json()) as { code: string }).code).toBe('BILLING_NOT_CONFIGURED');
  });
});
