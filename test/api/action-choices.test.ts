import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { addStripeConnect, connectServerEnv, type ConnectPeer } from '../support/stripe-connect-peer';
import { ADMIN, SIGNATURE, publishedDocument, upload } from '../support/signature-flow';
import { makePdf } from '../support/pdfs';
import { ACTION_CHOICES_LIMIT, type ActionChoicesAnswer, type ActionResult } from '../../api/contract/platform';
import type { SigDocument } from '../../api/contract/apps/document-signature';
import type { FormDefinition, FormDetail } from '../../api/contract/apps/e-form';
import type { Product } from '../../api/contract/apps/payments';

// What the pickers of "Send to a customer" offer: GET /api/{app}/actions/{key}/choices/{field}
// lists the published documents, the published forms and the active products with a price, for
// console sessions and agent sessions alike, and only the caller's account's.

const agentToken = (t: TestContext, account: 'acme' | 'globex', email = `agent@${account}.test`) =>
  t.deps.tokens.sign(
    { sub: `agent:${email}`, acc: t.account(account).id, role: 'agent', root: false, ghost: false, email },
    3600,
  );

const choices = async (t: TestContext, path: string, as: { as?: string; token?: string }) => {
  const res = await t.call('GET', path, as);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ActionChoicesAnswer;
};

const form = (title: string): FormDefinition => ({
  title,
  hiddenFields: [],
  fields: [{ id: 'policy', type: 'short_text', label: 'Policy number', required: true }],
});

describe.each(DATABASE_KINDS)('Pickers of Send to a customer (%s)', (kind) => {
  const t = useTestContext(kind);
  const DOCS = '/document-signature/actions/send/choices/documentId';
  const FORMS = '/e-form/actions/send/choices/form';

  beforeAll(async () => {
    expect((await t.call('POST', '/document-signature/billing/free-trial', { as: ADMIN, body: {} })).status).toBe(201);
    expect((await t.call('POST', '/sms', { as: ADMIN, body: { provider: 'dev-outbox' } })).status).toBe(200);
  });

  // the test clock stands still: each publication a second later, so "newest first" is seen
  const tick = () => (t.clock.now = new Date(t.clock.now.getTime() + 1000));

  async function publishedForm(title: string, as = ADMIN): Promise<FormDetail> {
    tick();
    const created = (await (
      await t.call('POST', '/e-form/forms', { as, body: { definition: form(title) } })
    ).json()) as FormDetail;
    const published = await t.call('POST', `/e-form/forms/${created.id}/publish`, { as, body: {} });
    expect(published.status, await published.clone().text()).toBe(200);
    return (await published.json()) as FormDetail;
  }

  it('documents: only published ones, with the version that would be sent and when it was published', async () => {
    const published = await publishedDocument(t);
    const draftOnly = (await (await upload(t, await makePdf(1), ADMIN, 'Draft lease')).json()) as SigDocument;
    // a published document with a newer draft: version 1 is what would be sent
    await t.call('PUT', `/document-signature/documents/${published.id}/draft`, {
      as: ADMIN,
      body: { name: 'Service agreement (next)', fields: [] },
    });
    const list = await choices(t, DOCS, { as: ADMIN });
    const ids = list.choices.map((c) => c.id);
    expect(ids).toContain(published.id);
    expect(ids).not.toContain(draftOnly.id);
    const choice = list.choices.find((c) => c.id === published.id)!;
    expect(choice).toMatchObject({ title: 'Service agreement', version: 1 });
    expect(Math.abs(Date.parse(choice.editedAt!) - Date.now())).toBeLessThan(60_000);
    expect(list.more).toBe(false);
  });

  it('documents: typing narrows by any part of the title, any case, or the exact id; % and _ are plain characters', async () => {
    const doc = await publishedDocument(t);
    await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, {
      as: ADMIN,
      body: { name: 'Loan 100%_fixed', fields: [SIGNATURE] },
    });
    expect((await t.call('POST', `/document-signature/documents/${doc.id}/publish`, { as: ADMIN, body: {} })).status).toBe(201);
    expect(
      (await choices(t, `${DOCS}?q=${encodeURIComponent('100%_FIX')}`, { as: ADMIN })).choices.map((c) => [
        c.id,
        c.title,
        c.version,
      ]),
    ).toEqual([[doc.id, 'Loan 100%_fixed', 2]]);
    expect((await choices(t, `${DOCS}?q=${encodeURIComponent('0%')}`, { as: ADMIN })).choices.map((c) => c.id)).toEqual([doc.id]);
    expect((await choices(t, `${DOCS}?q=${doc.id}`, { as: ADMIN })).choices.map((c) => c.id)).toEqual([doc.id]);
    expect((await choices(t, `${DOCS}?q=nothing-like-this`, { as: ADMIN })).choices).toEqual([]);
  });

  it('the picked document is what Send for signature takes, from an agent session too', async () => {
    const token = await agentToken(t, 'acme');
    const list = await choices(t, DOCS, { token });
    expect(list.choices.length).toBeGreaterThan(0);
    const sent = await t.call('POST', '/document-signature/actions/send', {
      token,
      body: { input: { documentId: list.choices[0]!.id, signerName: 'Ada Lovelace', phoneNumber: '+14155550142' } },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    expect(((await sent.json()) as ActionResult).status).toBe('sent');
  });

  it('forms: published ones only, by the published title; two forms with one title are both listed, told apart by id and version', async () => {
    const first = await publishedForm('Home claim');
    const second = await publishedForm('Home claim');
    // a second version of the first: its picker entry says version 2
    tick();
    expect(
      (
        await t.call('PUT', `/e-form/forms/${first.id}/draft`, {
          as: ADMIN,
          body: {
            definition: {
              ...form('Home claim'),
              fields: [{ id: 'policy', type: 'short_text', label: 'Policy or claim number', required: true }],
            },
          },
        })
      ).status,
    ).toBe(200);
    expect((await t.call('POST', `/e-form/forms/${first.id}/publish`, { as: ADMIN, body: {} })).status).toBe(200);
    const draft = (await (
      await t.call('POST', '/e-form/forms', { as: ADMIN, body: { definition: form('Home claim draft') } })
    ).json()) as FormDetail;
    const closed = await publishedForm('Home claim closed');
    expect((await t.call('POST', `/e-form/forms/${closed.id}/close`, { as: ADMIN, body: {} })).status).toBe(200);
    const list = await choices(t, `${FORMS}?q=HOME%20CLAIM`, { as: ADMIN });
    expect(list.choices.map((c) => [c.id, c.title, c.version])).toEqual([
      [first.id, 'Home claim', 2],
      [second.id, 'Home claim', 1],
    ]);
    expect(list.choices.map((c) => c.id)).not.toContain(draft.id);
    const sent = await t.call('POST', '/e-form/actions/send', {
      as: ADMIN,
      body: { input: { form: second.id, phoneNumber: '+14155550143' } },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    expect(((await sent.json()) as { task: { formId: string } }).task.formId).toBe(second.id);
  });

  it(`forms: at most ${ACTION_CHOICES_LIMIT} are listed, newest first, and the answer says there are more`, async () => {
    for (let i = 0; i < ACTION_CHOICES_LIMIT + 1; i++) await publishedForm(`Bulk form ${String(i).padStart(2, '0')}`);
    const list = await choices(t, `${FORMS}?q=bulk`, { as: ADMIN });
    expect(list.choices).toHaveLength(ACTION_CHOICES_LIMIT);
    expect(list.more).toBe(true);
    expect(list.choices[0]!.title).toBe(`Bulk form ${ACTION_CHOICES_LIMIT}`);
  });

  it("another account's documents and forms are never listed", async () => {
    const acme = await choices(t, FORMS, { as: ADMIN });
    const globex = await choices(t, FORMS, { as: 'owner@globex.test' });
    const acmeIds = new Set(acme.choices.map((c) => c.id));
    expect(globex.choices.some((c) => acmeIds.has(c.id))).toBe(false);
    expect((await choices(t, DOCS, { token: await agentToken(t, 'globex') })).choices).toEqual([]);
  });

  it('a field that is not a picker, an unknown action and a search longer than 200 characters are refused', async () => {
    const notPicker = await t.call('GET', '/document-signature/actions/send/choices/signerName', { as: ADMIN });
    expect(notPicker.status).toBe(404);
    expect(((await notPicker.json()) as { code: string }).code).toBe('NOT_FOUND');
    expect((await t.call('GET', '/document-signature/actions/sign/choices/documentId', { as: ADMIN })).status).toBe(404);
    const long = await t.call('GET', `${DOCS}?q=${'x'.repeat(201)}`, { as: ADMIN });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { code: string; fields: Record<string, string> }).fields.q).toBe(
      'q has at most 200 characters',
    );
  });
});

describe.each(DATABASE_KINDS)('Product picker with Stripe Connect (%s)', (kind) => {
  const OWNER = 'owner@globex.test';
  const PRODUCTS = '/payments/actions/request/choices/productId';
  const raw: Record<string, string> = {};
  let peer: StripePeer;
  let connect: ConnectPeer;
  beforeAll(async () => {
    peer = await startStripePeer({ webhookSecret: 'whsec_billing_unused' });
    connect = addStripeConnect(peer, { clientId: 'ca_picker', webhookSecret: 'whsec_picker', deliver: async () => 200 });
    Object.assign(raw, connectServerEnv(peer, 'ca_picker', 'whsec_picker'));
  });
  afterAll(async () => peer?.close());
  const t = useTestContext(kind, { raw } as never);

  it('before the Stripe account is connected the picker answers why', async () => {
    const res = await t.call('GET', PRODUCTS, { as: OWNER });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { code: string }).code).toBe('STRIPE_NOT_CONNECTED');
  });

  it('lists active products with their price and description, never archived ones; an agent picks one and requests the payment', async () => {
    const started = await t.call('POST', '/payments/stripe/connect', { as: OWNER });
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0]!;
    const state = new URL(((await started.json()) as { url: string }).url).searchParams.get('state')!;
    const connected = await t.call('POST', '/payments/stripe/callback', {
      as: OWNER,
      body: { state, code: connect.authorize(state) },
      headers: { cookie },
    });
    expect(connected.status, await connected.clone().text()).toBe(200);
    const make = async (body: Record<string, unknown>) =>
      (await (await t.call('POST', '/payments/products', { as: OWNER, body })).json()) as Product;
    const service = await make({ name: 'Boiler service', description: 'Annual check', unitAmount: 4900, currency: 'usd' });
    const old = await make({ name: 'Boiler repair (old)', unitAmount: 9900, currency: 'usd' });
    expect((await t.call('PUT', `/payments/products/${old.id}`, { as: OWNER, body: { active: false } })).status).toBe(200);
    const token = await agentToken(t, 'globex');
    const list = await choices(t, `${PRODUCTS}?q=boiler`, { token });
    expect(list).toEqual({
      choices: [
        {
          id: service.id,
          title: 'Boiler service',
          detail: 'Annual check',
          price: { amount: 4900, currency: 'usd' },
          editedAt: service.updatedAt,
        },
      ],
      more: false,
    });
    expect((await t.call('POST', '/sms', { as: OWNER, body: { provider: 'dev-outbox' } })).status).toBe(200);
    const sent = await t.call('POST', '/payments/actions/request', {
      token,
      body: { input: { productId: list.choices[0]!.id, phoneNumber: '+14155550144' } },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    expect(((await sent.json()) as { task: { amount: number } }).task.amount).toBe(4900);
  });
});

describe.each(DATABASE_KINDS)('Product picker without Stripe Connect on the server (%s)', (kind) => {
  const t = useTestContext(kind);
  it('answers STRIPE_CONNECT_NOT_CONFIGURED', async () => {
    const res = await t.call('GET', '/payments/actions/request/choices/productId', { as: 'owner@globex.test' });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('STRIPE_CONNECT_NOT_CONFIGURED');
  });
});
