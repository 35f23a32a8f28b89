import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { json, LOOPBACK_CERT, startPeer, type Peer } from './peers';
import { deliverWebhooksOnce } from '../../api/integrations/webhooks';
import { sweepJourneys } from '../../api/journeys/service';
import type { FormDefinition, FormDetail } from '../../api/contract/apps/e-form';
import type { Journey, JourneyDetail, JourneyTemplate } from '../../api/contract/journeys';
import { publishedDocument } from '../support/signature-flow';
import { SoftAuthenticator } from '../../api/apps/passkeys/soft-authenticator';
import { makeJpeg, sampleDocumentPng } from '../../api/apps/identity-verification/sample-images';

// Journeys end to end through the API and the caller's page: one SMS, one link, the steps in
// order, each an ordinary task of its app; the gate, tenancy, failure and resend, idempotency,
// billing per step and the signed webhooks.

const OWNER = 'owner@acme.test';
const GLOBEX = 'owner@globex.test';
const DETAILS: FormDefinition = {
  title: 'Your details',
  hiddenFields: [],
  fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }],
};

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

const TWILIO_SID = 'AC' + 'a'.repeat(32);
const FAILING_PHONE = '+14155550999';
// ICAO 9303 specimen data with an expiry in 2034 (check digits computed for it)
const MRZ = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F3404159<<<<<<<<<<<<<<04'];

let phones = 0;
const freshPhone = () => `+1415557${String(1000 + phones++).padStart(4, '0')}`;

describe.each(DATABASE_KINDS)('Journeys (%s)', (kind) => {
  const overrides: Record<string, unknown> = {};
  let receiver: Peer;
  let twilio: Peer;
  beforeAll(async () => {
    receiver = await startPeer(undefined, { tls: true });
    // Twilio on loopback: every message to FAILING_PHONE fails with a 500
    twilio = await startPeer((req, res) => {
      if (req.method === 'GET') return json(res, 200, { sid: TWILIO_SID, status: 'active' });
      const to = new URLSearchParams(req.body).get('To');
      if (to === FAILING_PHONE) return json(res, 500, { message: 'boom' });
      return json(res, 201, { sid: 'SM' + 'f'.repeat(32), status: 'queued', to });
    });
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [receiver.host, twilio.host];
    overrides.outboundCa = LOOPBACK_CERT;
    return async () => {
      await receiver.close();
      await twilio.close();
    };
  });
  const t = useTestContext(kind, overrides);
  let key: string;
  let globexKey: string;
  let formId: string;
  const v1 = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, as = key) =>
    t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${as}`, ...headers } });
  const page = (path: string, init: RequestInit = {}) =>
    t.app.request(path, { ...init, headers: { host: 'localhost:3000', ...(init.headers ?? {}) } });
  const post = (path: string, fields: Record<string, string>) =>
    page(path, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const outbox = async (to: string) =>
    ((await (await t.call('GET', '/dev/sms-outbox', { as: OWNER })).json()) as { to: string; body: string }[]).filter(
      (m) => m.to === to,
    );
  const linkOf = (body: string) => new URL(body.match(/https?:\/\/\S+/)![0]).pathname;
  const codeOf = (body: string) => body.match(/\b(\d{6})\b/)![1]!;

  async function template(body: Record<string, unknown>): Promise<JourneyTemplate> {
    const res = await t.call('POST', '/journeys/templates', { as: OWNER, body });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as JourneyTemplate;
  }

  async function send(
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<{ journey: Journey; phoneNumber: string; sms: string[] }> {
    const phoneNumber = (body.phoneNumber as string | undefined) ?? freshPhone();
    const res = await v1('POST', '/journeys', { phoneNumber, customerRef: 'CUST-9', agent: 'maya@acme.test', ...body }, headers);
    expect(res.status, await res.clone().text()).toBe(201);
    return { journey: (await res.json()) as Journey, phoneNumber, sms: (await outbox(phoneNumber)).map((m) => m.body) };
  }

  const journey = async (id: string, as = key) =>
    (await (await v1('GET', `/journeys/${id}`, undefined, {}, as)).json()) as Journey;
  const credits = (app: string, taskId: string) =>
    t.db.system(async (trx) =>
      Number(
        (
          await sql<{
            n: number;
          }>`select coalesce(sum(units), 0)::int as n from credit_ledger where app = ${app} and task_id = ${taskId}`.execute(trx)
        ).rows[0]!.n,
      ),
    );

  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: OWNER, body: { provider: 'dev-outbox' } })).status).toBe(200);
    expect((await t.call('POST', '/sms', { as: GLOBEX, body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = await apiKeyOf(t, OWNER);
    globexKey = await apiKeyOf(t, GLOBEX);
    expect([201, 409]).toContain((await t.call('POST', '/e-form/billing/free-trial', { as: GLOBEX, body: {} })).status);
    const created = (await (
      await t.call('POST', '/e-form/forms', { as: OWNER, body: { definition: DETAILS } })
    ).json()) as FormDetail;
    expect((await t.call('POST', `/e-form/forms/${created.id}/publish`, { as: OWNER, body: {} })).status).toBe(200);
    formId = created.id;
  });
  beforeEach(async () => {
    // each test starts with the key's full burst: the tests together send faster than one caller would
    await t.db.system((trx) => sql`delete from api_rate_buckets`.execute(trx));
    receiver.received.length = 0;
    receiver.handle((_req, res) => res.end('ok'));
  });

  it('one SMS carries the code and one link; the page walks the steps and the journey completes', async () => {
    const tpl = await template({ name: 'Verify then details', steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }] });
    const { journey: sent, sms } = await send({ templateId: tpl.id });
    expect(sms).toHaveLength(1);
    expect(sent).toMatchObject({
      status: 'active',
      name: 'Verify then details',
      currentStep: 0,
      steps: [
        { app: 'one-time-passcode', status: 'active' },
        { app: 'e-form', status: 'waiting', taskId: null },
      ],
    });
    const link = linkOf(sms[0]!);

    const first = await page(link);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('Step 1 of 2');
    expect(html).toContain('Enter your code');

    const answered = await post(link, { code: codeOf(sms[0]!) });
    const next = await answered.text();
    expect(next).toContain('Step 2 of 2');
    expect(next).toContain('Full name');

    const done = await post(link, { name: 'Ana Lima' });
    expect(await done.text()).toContain('All done');
    const finished = await journey(sent.id);
    expect(finished).toMatchObject({
      status: 'completed',
      steps: [
        { status: 'done', taskStatus: 'approved' },
        { status: 'done', taskStatus: 'submitted' },
      ],
    });
    // each step is an ordinary task of its app
    const formTask = (await (await v1('GET', `/form-requests/${finished.steps[1]!.taskId}`)).json()) as {
      status: string;
      customerRef: string;
    };
    expect(formTask).toMatchObject({ status: 'submitted', customerRef: 'CUST-9' });
  });

  it('before the code passes, a later step has no task and nothing posted to the link reaches it', async () => {
    const { journey: sent, sms, phoneNumber } = await send({ steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }] });
    const link = linkOf(sms[0]!);
    const res = await post(link, { name: 'Someone else' });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).toContain('Enter your code');
    expect(html).not.toContain('Full name');
    const now = await journey(sent.id);
    expect(now.steps[1]).toMatchObject({ status: 'waiting', taskId: null });
    const requests = await t.db.system(async (trx) =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from eform_requests where phone_number = ${phoneNumber}`.execute(trx))
          .rows[0]!.n,
      ),
    );
    expect(requests).toBe(0);
  });

  it('a passkey first: nothing after it shows until the caller\u2019s own passkey ceremony succeeds on the journey\u2019s page', async () => {
    await t.db.system((trx) =>
      sql`insert into app_billing (account_id, app, status, credits, free_tier) values (${t.account('acme').id}, 'passkeys', 'subscription', 0, 1000)
      on conflict (account_id, app) do update set status = 'subscription', free_tier = 1000`.execute(trx),
    );
    const ceremony = (token: string, step: string, body?: unknown) =>
      t.app.request(`/api/c/${token}/passkey/${step}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // the customer enrolled a passkey earlier, through Passkeys' own link
    const device = new SoftAuthenticator();
    const enrollPhone = freshPhone();
    expect((await v1('POST', '/passkeys/enrollments', { customerRef: 'CUST-PK', phoneNumber: enrollPhone })).status).toBe(201);
    const enrollToken = linkOf((await outbox(enrollPhone))[0]!.body).slice(3);
    const created = device.register(
      ((await (await ceremony(enrollToken, 'options')).json()) as { options: Record<string, unknown> }).options,
      'http://localhost',
    );
    expect(await (await ceremony(enrollToken, 'verify', created)).json()).toMatchObject({ ok: true });

    const { journey: sent, sms } = await send({
      customerRef: 'CUST-PK',
      steps: [{ app: 'passkeys' }, { app: 'e-form', formId }],
    });
    const link = linkOf(sms[0]!);
    const html = await (await page(link)).text();
    expect(html).toContain('Step 1 of 2');
    const stepToken = html.match(/data-passkey-base="\/api\/c\/([A-Za-z0-9_-]{43})\/passkey"/)![1]!;
    expect(link).not.toContain(stepToken);
    expect(await (await post(link, { name: 'Someone else' })).text()).not.toContain('Full name');
    expect((await journey(sent.id)).steps[1]).toMatchObject({ status: 'waiting', taskId: null });

    const options = ((await (await ceremony(stepToken, 'options')).json()) as { options: Record<string, unknown> }).options;
    expect(await (await ceremony(stepToken, 'verify', device.authenticate(options, 'http://localhost'))).json()).toMatchObject({
      ok: true,
    });
    const next = await (await page(link)).text();
    expect(next).toContain('Step 2 of 2');
    expect(next).toContain('Full name');
    expect(await journey(sent.id)).toMatchObject({
      steps: [{ app: 'passkeys', status: 'done', taskStatus: 'succeeded' }, { status: 'active' }],
    });
  });

  it('a journey can have the caller create a passkey through Passkeys\u2019 own page, then verify with it', async () => {
    await t.db.system((trx) =>
      sql`insert into app_billing (account_id, app, status, credits, free_tier) values (${t.account('acme').id}, 'passkeys', 'subscription', 0, 1000)
      on conflict (account_id, app) do update set status = 'subscription', free_tier = 1000`.execute(trx),
    );
    const ceremony = (token: string, step: string, body?: unknown) =>
      t.app.request(`/api/c/${token}/passkey/${step}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const stepTokenOf = (html: string) => html.match(/data-passkey-base="\/api\/c\/([A-Za-z0-9_-]{43})\/passkey"/)![1]!;
    const device = new SoftAuthenticator();
    const { journey: sent, sms } = await send({
      customerRef: 'CUST-NEWPK',
      steps: [{ app: 'passkeys', action: 'enroll' }, { app: 'passkeys' }, { app: 'e-form', formId }],
    });
    expect(sms).toHaveLength(1);
    const link = linkOf(sms[0]!);
    const first = await (await page(link)).text();
    expect(first).toContain('Step 1 of 3');
    expect(first).toContain('data-passkey="enrollment"');
    const enrollToken = stepTokenOf(first);
    const created = device.register(
      ((await (await ceremony(enrollToken, 'options')).json()) as { options: Record<string, unknown> }).options,
      'http://localhost',
    );
    expect(await (await ceremony(enrollToken, 'verify', created)).json()).toMatchObject({ ok: true });

    // the passkey just created is the customer's, and the next step verifies with it
    const second = await (await page(link)).text();
    expect(second).toContain('Step 2 of 3');
    expect(second).toContain('data-passkey="verification"');
    const verifyToken = stepTokenOf(second);
    const options = ((await (await ceremony(verifyToken, 'options')).json()) as { options: Record<string, unknown> }).options;
    expect(await (await ceremony(verifyToken, 'verify', device.authenticate(options, 'http://localhost'))).json()).toMatchObject({
      ok: true,
    });
    expect(await (await page(link)).text()).toContain('Full name');
    const walked = await journey(sent.id);
    expect(walked.steps.slice(0, 2)).toMatchObject([
      { app: 'passkeys', status: 'done', taskStatus: 'succeeded' },
      { app: 'passkeys', status: 'done', taskStatus: 'succeeded' },
    ]);
    const kinds = await t.db.system(async (trx) =>
      (
        await sql<{
          kind: string;
        }>`select kind from passkey_tasks where id = any(${walked.steps.slice(0, 2).map((s) => s.taskId!)}::uuid[]) order by created_at`.execute(
          trx,
        )
      ).rows.map((r) => r.kind),
    );
    expect(kinds).toEqual(['enrollment', 'verification']);
  });

  it('an identity step is refused up front (403 APP_NOT_RELEASED) on an account Identity Verification is not released for', async () => {
    const phoneNumber = freshPhone();
    const res = await v1('POST', '/journeys', {
      steps: [{ app: 'one-time-passcode' }, { app: 'identity-verification' }],
      phoneNumber,
      customerRef: 'CUST-9',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'APP_NOT_RELEASED' });
    expect(await outbox(phoneNumber)).toHaveLength(0);
  });

  it('where Identity Verification is released, an identity step shows its own page after the code, and its cancelled session fails the journey', async () => {
    const STAFF = 'staff@provider.test';
    expect((await t.call('POST', '/sms', { as: STAFF, body: { provider: 'dev-outbox' } })).status).toBe(200);
    const staffKey = await apiKeyOf(t, STAFF);
    const phoneNumber = freshPhone();
    const res = await v1(
      'POST',
      '/journeys',
      {
        steps: [{ app: 'one-time-passcode' }, { app: 'identity-verification' }],
        phoneNumber,
        customerRef: 'CUST-ID',
        customerName: 'Anna Eriksson',
      },
      {},
      staffKey,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const sent = (await res.json()) as Journey;
    const sms = ((await (await t.call('GET', '/dev/sms-outbox', { as: STAFF })).json()) as { to: string; body: string }[]).filter(
      (m) => m.to === phoneNumber,
    );
    expect(sms).toHaveLength(1);
    const link = linkOf(sms[0]!.body);
    expect(await (await page(link)).text()).not.toContain('Verify your identity');
    const next = await (await post(link, { code: codeOf(sms[0]!.body) })).text();
    expect(next).toContain('Step 2 of 2');
    expect(next).toContain('Verify your identity');
    const reached = await journey(sent.id, staffKey);
    expect(reached.steps[1]).toMatchObject({ app: 'identity-verification', status: 'active', taskStatus: 'link_sent' });
    const session = await v1('GET', `/idv/sessions/${reached.steps[1]!.taskId}`, undefined, {}, staffKey);
    expect(await session.json()).toMatchObject({ customerRef: 'CUST-ID', status: 'link_sent' });
    expect(await (await page(link)).text()).toContain('Step 2 of 2');

    expect((await v1('POST', `/idv/sessions/${reached.steps[1]!.taskId}/cancel`, {}, {}, staffKey)).status).toBe(200);
    expect(await journey(sent.id, staffKey)).toMatchObject({
      status: 'failed',
      steps: [{ status: 'done' }, { status: 'failed', taskStatus: 'cancelled' }],
    });
  });

  it('an identity step\u2019s forms bring the caller back to the journey\u2019s link, which goes on once the reviewer approves', async () => {
    const STAFF = 'staff@provider.test';
    expect((await t.call('POST', '/sms', { as: STAFF, body: { provider: 'dev-outbox' } })).status).toBe(200);
    const staffKey = await apiKeyOf(t, STAFF);
    const phoneNumber = freshPhone();
    const res = await v1(
      'POST',
      '/journeys',
      { steps: [{ app: 'identity-verification' }], phoneNumber, customerRef: 'CUST-ID2', customerName: 'Anna Maria Eriksson' },
      {},
      staffKey,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const sent = (await res.json()) as Journey;
    const sms = ((await (await t.call('GET', '/dev/sms-outbox', { as: STAFF })).json()) as { to: string; body: string }[]).filter(
      (m) => m.to === phoneNumber,
    );
    const journeyUrl = sms[0]!.body.match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0];
    const html = await (await page(new URL(journeyUrl).pathname)).text();
    const stepToken = html.match(/action="\/c\/([A-Za-z0-9_-]{43})\/idv\/document\?lang=en"/)![1]!;
    expect(journeyUrl).not.toContain(stepToken);
    const idv = async (path: string, fields: Record<string, string | Blob>) => {
      const body = new FormData();
      for (const [k, value] of Object.entries(fields)) body.append(k, value);
      const answer = await page(`/c/${stepToken}/idv/${path}?lang=en`, { method: 'POST', body });
      expect(answer.status).toBe(303);
      return answer.headers.get('location')!;
    };
    const photo = (bytes: Buffer, type: string) => new File([new Uint8Array(bytes)], 'photo', { type });
    // every form of IDV's page answers with the journey's link, never IDV's page alone
    expect(await idv('document', { documentType: 'passport' })).toBe(`${journeyUrl}?lang=en#document`);
    expect(await idv('photo/front', { photo: photo(sampleDocumentPng(1, 'front'), 'image/png') })).toBe(
      `${journeyUrl}?lang=en#front`,
    );
    expect(await idv('photo/selfie', { photo: photo(Buffer.from('GIF89a', 'latin1'), 'image/jpeg') })).toBe(
      `${journeyUrl}?lang=en&error=IMAGE_TYPE&side=selfie#selfie`,
    );
    expect(
      await idv('photo/selfie', {
        photo: photo(
          makeJpeg(12, 16, () => 200),
          'image/jpeg',
        ),
      }),
    ).toBe(`${journeyUrl}?lang=en#selfie`);
    expect(await idv('submit', {})).toBe(`${journeyUrl}?lang=en#submit`);
    const waiting = await (await page(`${new URL(journeyUrl).pathname}?lang=en`)).text();
    expect(waiting).toContain('Step 1 of 1');
    expect(waiting).toContain('Thank you: your photos were sent');
    expect(waiting).toContain('When they have been checked, the next step opens at this link.');
    expect(waiting).toContain('<a href="" data-journey-next="true">Continue</a>');

    const sessionId = (await journey(sent.id, staffKey)).steps[0]!.taskId!;
    expect(
      (await t.call('POST', `/identity-verification/sessions/${sessionId}/mrz`, { as: STAFF, body: { lines: MRZ.join('\n') } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.call('POST', `/identity-verification/sessions/${sessionId}/decision`, {
          as: STAFF,
          body: { decision: 'approved', reason: 'document_and_selfie_match' },
        })
      ).status,
    ).toBe(200);
    expect(await (await page(new URL(journeyUrl).pathname)).text()).toContain('All done');
    expect(await journey(sent.id, staffKey)).toMatchObject({
      status: 'completed',
      steps: [{ status: 'done', taskStatus: 'approved' }],
    });
  });

  it('a reviewer\u2019s request for new photos texts the journey\u2019s link in the caller\u2019s language, whose page takes the new photos', async () => {
    const STAFF = 'staff@provider.test';
    expect((await t.call('POST', '/sms', { as: STAFF, body: { provider: 'dev-outbox' } })).status).toBe(200);
    const staffKey = await apiKeyOf(t, STAFF);
    const phoneNumber = freshPhone();
    const res = await v1(
      'POST',
      '/journeys',
      {
        steps: [{ app: 'identity-verification' }],
        phoneNumber,
        customerRef: 'CUST-ID3',
        customerName: 'Anna Maria Eriksson',
        locale: 'es',
      },
      {},
      staffKey,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const sent = (await res.json()) as Journey;
    const texts = async () =>
      ((await (await t.call('GET', '/dev/sms-outbox', { as: STAFF })).json()) as { to: string; body: string }[])
        .filter((m) => m.to === phoneNumber)
        .map((m) => m.body);
    const journeyUrl = (await texts())[0]!.match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0];
    const stepTokenOf = async () =>
      (await (await page(new URL(journeyUrl).pathname)).text()).match(
        /action="\/c\/([A-Za-z0-9_-]{43})\/idv\/document\?lang=es"/,
      )?.[1];
    const sendPhotos = async (token: string) => {
      for (const [path, fields] of [
        ['document', { documentType: 'passport' }],
        ['photo/front', { photo: new File([new Uint8Array(sampleDocumentPng(1, 'front'))], 'photo', { type: 'image/png' }) }],
        ['photo/selfie', { photo: new File([new Uint8Array(makeJpeg(12, 16, () => 200))], 'photo', { type: 'image/jpeg' }) }],
        ['submit', {}],
      ] as const) {
        const body = new FormData();
        for (const [k, value] of Object.entries(fields)) body.append(k, value);
        const answer = await page(`/c/${token}/idv/${path}?lang=es`, { method: 'POST', body });
        expect(answer.status).toBe(303);
        expect(answer.headers.get('location')).toBe(`${journeyUrl}?lang=es#${path.replace('photo/', '')}`);
      }
    };
    const firstToken = (await stepTokenOf())!;
    await sendPhotos(firstToken);
    const sessionId = (await journey(sent.id, staffKey)).steps[0]!.taskId!;
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    const asked = await t.call('POST', `/identity-verification/sessions/${sessionId}/decision`, {
      as: STAFF,
      body: { decision: 'resubmission_requested', reason: 'image_unreadable' },
    });
    expect(asked.status).toBe(200);

    // the one new SMS: IDV's resubmission text in Spanish, carrying the journey's link and no other
    const after = await texts();
    expect(after).toHaveLength(2);
    const resubmission = after.find((body) => body.includes('fotos'))!;
    expect(resubmission).toContain(`necesita nuevas fotos para verificar tu identidad: ${journeyUrl} (válido`);
    expect(resubmission.match(/\/c\/[A-Za-z0-9_-]{43}/g)).toEqual([new URL(journeyUrl).pathname]);
    // the journey's page shows the step again, on a new token; the revoked one is gone for good
    const again = await (await page(`${new URL(journeyUrl).pathname}?lang=es`)).text();
    expect(again).toContain('Necesitamos fotos nuevas');
    const secondToken = (await stepTokenOf())!;
    expect(secondToken).toBeDefined();
    expect(secondToken).not.toBe(firstToken);
    expect((await page(`/c/${firstToken}`)).status).toBe(410);
    expect(await journey(sent.id, staffKey)).toMatchObject({
      status: 'active',
      steps: [{ status: 'active', taskId: sessionId, taskStatus: 'resubmission_requested' }],
    });

    await sendPhotos(secondToken);
    expect(
      (await t.call('POST', `/identity-verification/sessions/${sessionId}/mrz`, { as: STAFF, body: { lines: MRZ.join('\n') } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.call('POST', `/identity-verification/sessions/${sessionId}/decision`, {
          as: STAFF,
          body: { decision: 'approved', reason: 'document_and_selfie_match' },
        })
      ).status,
    ).toBe(200);
    expect(await journey(sent.id, staffKey)).toMatchObject({
      status: 'completed',
      steps: [{ status: 'done', taskStatus: 'approved' }],
    });
  });

  async function withRefusingTwilio(run: () => Promise<void>): Promise<void> {
    const twilioConfig = {
      provider: 'twilio',
      twilio: { accountSid: TWILIO_SID, authToken: 'twilio-auth-token-secret-value', phoneNumber: '+14155550100' },
    };
    expect((await t.call('POST', '/sms', { as: OWNER, body: twilioConfig })).status).toBe(200);
    try {
      await run();
    } finally {
      expect((await t.call('POST', '/sms', { as: OWNER, body: { provider: 'dev-outbox' } })).status).toBe(200);
    }
  }
  const timelineOf = async (id: string) =>
    ((await (await t.call('GET', `/journeys/${id}`, { as: OWNER })).json()) as JourneyDetail).timeline.map((e) => e.description);

  it('when the journey\u2019s SMS fails, its passcode ends as One-Time Passcode ends an undelivered one, its credit given back, on send and on resend', async () => {
    await withRefusingTwilio(async () => {
      const res = await v1('POST', '/journeys', {
        steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }],
        phoneNumber: FAILING_PHONE,
        customerRef: 'CUST-9',
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const failed = (await res.json()) as Journey;
      expect(failed).toMatchObject({
        status: 'failed',
        failureReason: expect.stringContaining('Link not delivered'),
        steps: [{ status: 'failed' }, { status: 'waiting', taskId: null }],
      });
      expect(await journey(failed.id)).toMatchObject({
        status: 'failed',
        steps: [{ status: 'failed', taskStatus: 'failed' }, { taskStatus: null }],
      });
      expect(await (await v1('GET', `/otp/${failed.steps[0]!.taskId!}`)).json()).toMatchObject({ status: 'failed' });
      expect(await credits('one-time-passcode', failed.steps[0]!.taskId!)).toBe(0);
      const ledger = await t.db.system(
        async (trx) =>
          (
            await sql<{
              kind: string;
              units: number;
            }>`select kind, units from credit_ledger where app = 'one-time-passcode' and task_id = ${failed.steps[0]!.taskId!} order by units desc`.execute(
              trx,
            )
          ).rows,
      );
      expect(ledger).toHaveLength(2);
      expect(ledger[1]).toMatchObject({ kind: `${ledger[0]!.kind}:released`, units: -1 });
      expect(await timelineOf(failed.id)).toContainEqual(expect.stringMatching(/^Journey link not delivered: /));
      // the agent resends; the resend that fails in the same way ends its new passcode too
      const again = await v1('POST', `/journeys/${failed.id}/resend`, {});
      expect(again.status, await again.clone().text()).toBe(200);
      const resent = (await again.json()) as Journey;
      expect(resent).toMatchObject({ status: 'failed', steps: [{ status: 'failed', taskStatus: 'failed' }, {}] });
      expect(resent.steps[0]!.taskId).not.toBe(failed.steps[0]!.taskId);
      expect(await credits('one-time-passcode', resent.steps[0]!.taskId!)).toBe(0);
    });
  });

  it('when the journey\u2019s SMS fails, a form first ends failed as eForm ends an undelivered request; a resend that goes out makes the journey active again', async () => {
    let id = '';
    await withRefusingTwilio(async () => {
      const res = await v1('POST', '/journeys', {
        steps: [{ app: 'e-form', formId }],
        phoneNumber: FAILING_PHONE,
        customerRef: 'CUST-9',
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const failed = (await res.json()) as Journey;
      id = failed.id;
      expect(await journey(id)).toMatchObject({
        status: 'failed',
        failureReason: expect.stringContaining('Link not delivered'),
        steps: [{ status: 'failed', taskStatus: 'failed' }],
      });
      expect(await credits('e-form', failed.steps[0]!.taskId!)).toBe(0);
      const audits = await t.db.system(
        async (trx) =>
          (await sql<{ event: string }>`select event from audit_log where event = 'form.send-failed'`.execute(trx)).rows,
      );
      expect(audits.length).toBeGreaterThan(0);
    });
    // the number works again: the agent resends, and the caller gets a new link to a new request
    await t.db.system((trx) => sql`update journeys set phone_number = ${freshPhone()} where id = ${id}`.execute(trx));
    const again = await v1('POST', `/journeys/${id}/resend`, {});
    expect(again.status, await again.clone().text()).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'active', steps: [{ status: 'active', taskStatus: 'sent' }] });
  });

  it('when the journey\u2019s SMS fails, a passkey first ends not_delivered and a signature first cancelled, as their apps end undelivered tasks', async () => {
    await t.db.system((trx) =>
      sql`insert into app_billing (account_id, app, status, credits, free_tier) values (${t.account('acme').id}, 'passkeys', 'subscription', 0, 1000)
      on conflict (account_id, app) do update set status = 'subscription', free_tier = 1000`.execute(trx),
    );
    expect([201, 409]).toContain(
      (await t.call('POST', '/document-signature/billing/free-trial', { as: OWNER, body: {} })).status,
    );
    const doc = await publishedDocument(t);
    await withRefusingTwilio(async () => {
      for (const [step, app, status] of [
        [{ app: 'passkeys', action: 'enroll' }, 'passkeys', 'not_delivered'],
        [{ app: 'document-signature', documentId: doc.id }, 'document-signature', 'cancelled'],
      ] as const) {
        const res = await v1('POST', '/journeys', {
          steps: [step],
          phoneNumber: FAILING_PHONE,
          customerRef: 'CUST-9',
          customerName: 'Rosa Parks',
        });
        expect(res.status, await res.clone().text()).toBe(201);
        const failed = await journey(((await res.json()) as Journey).id);
        expect(failed, app).toMatchObject({
          status: 'failed',
          failureReason: expect.stringContaining('Link not delivered'),
          steps: [{ app, status: 'failed', taskStatus: status }],
        });
        expect(await credits(app, failed.steps[0]!.taskId!)).toBe(0);
      }
    });
  });

  it('when the SMS guard holds the journey\u2019s SMS, its step ends as its app ends an undelivered task and the journey fails with the reason', async () => {
    const before = (await (await t.call('GET', '/sms/guard', { as: OWNER })).json()) as {
      allowedCountries: string[];
      rules: Record<string, number>;
      pumpingGuard: boolean;
    };
    // a range may take one send an hour: the journey's SMS to a second number in it trips the volume rule
    const strict = {
      allowedCountries: before.allowedCountries,
      pumpingGuard: true,
      rules: { ...before.rules, volumeMultiplier: 1, volumeAllowance: 1 },
    };
    expect((await t.call('PUT', '/sms/guard', { as: OWNER, body: strict })).status).toBe(200);
    try {
      expect((await send({ steps: [{ app: 'e-form', formId }], phoneNumber: '+12125550101' })).journey.status).toBe('active');
      const res = await v1('POST', '/journeys', {
        steps: [{ app: 'e-form', formId }],
        phoneNumber: '+12125550102',
        customerRef: 'CUST-9',
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const held = await journey(((await res.json()) as Journey).id);
      expect(held).toMatchObject({
        status: 'failed',
        failureReason: expect.stringContaining('Link not delivered'),
        steps: [{ status: 'failed', taskStatus: 'failed' }],
      });
      expect(await credits('e-form', held.steps[0]!.taskId!)).toBe(0);
      expect(await timelineOf(held.id)).toContainEqual(expect.stringMatching(/^Journey link not delivered: /));
      expect(await outbox('+12125550102')).toHaveLength(0);
    } finally {
      const guard = (await (await t.call('GET', '/sms/guard', { as: OWNER })).json()) as { holds: { prefix: string }[] };
      for (const h of guard.holds)
        expect(
          (await t.call('POST', `/sms/guard/holds/${encodeURIComponent(h.prefix)}/release`, { as: OWNER, body: {} })).status,
        ).toBe(200);
      expect((await t.call('PUT', '/sms/guard', { as: OWNER, body: before })).status).toBe(200);
    }
  });

  it('a passkey step needs the customer ID its passkey was enrolled for', async () => {
    const res = await v1('POST', '/journeys', { steps: [{ app: 'passkeys' }], phoneNumber: freshPhone(), customerRef: null });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ fields: { customerRef: expect.any(String) } });
  });

  it('each step is charged as its app charges a send, when the caller reaches it', async () => {
    const { journey: sent, sms } = await send({ steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }] });
    expect(await credits('one-time-passcode', sent.steps[0]!.taskId!)).toBe(1);
    const formCreditsBefore = await t.db.system(async (trx) =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from credit_ledger where app = 'e-form'`.execute(trx)).rows[0]!.n,
      ),
    );
    await post(linkOf(sms[0]!), { code: codeOf(sms[0]!) });
    const reached = await journey(sent.id);
    expect(await credits('e-form', reached.steps[1]!.taskId!)).toBe(1);
    const formCreditsAfter = await t.db.system(async (trx) =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from credit_ledger where app = 'e-form'`.execute(trx)).rows[0]!.n,
      ),
    );
    expect(formCreditsAfter - formCreditsBefore).toBe(1);
  });

  it('wrong codes until none are left pause a "pause" journey; the agent resends from that step with a new link', async () => {
    const tpl = await template({
      name: 'Pausing',
      steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }],
      onFailure: 'pause',
    });
    const { journey: sent, sms, phoneNumber } = await send({ templateId: tpl.id });
    const link = linkOf(sms[0]!);
    const wrong = codeOf(sms[0]!) === '000000' ? '111111' : '000000';
    let last = '';
    for (let i = 0; i < 5; i++) last = await (await post(link, { code: wrong })).text();
    expect(last).toContain('Paused');
    const paused = await journey(sent.id);
    expect(paused).toMatchObject({
      status: 'paused',
      steps: [{ status: 'failed', taskStatus: 'max_attempts_reached' }, { status: 'waiting' }],
    });

    const resent = await v1('POST', `/journeys/${sent.id}/resend`, { agent: 'maya@acme.test' });
    expect(resent.status, await resent.clone().text()).toBe(200);
    const again = (await resent.json()) as Journey;
    expect(again).toMatchObject({ status: 'active', steps: [{ status: 'active', attempts: 2 }, { status: 'waiting' }] });
    expect(again.steps[0]!.taskId).not.toBe(sent.steps[0]!.taskId);
    const messages = (await outbox(phoneNumber)).map((m) => m.body);
    expect(messages).toHaveLength(2);
    // a second SMS with another link (the test clock stands still: the outbox's order says nothing)
    const newSms = messages.find((m) => linkOf(m) !== link)!;
    expect(newSms).toBeDefined();
    const newLink = linkOf(newSms);
    expect((await page(link)).status).toBe(410);
    expect(await (await post(newLink, { code: codeOf(newSms) })).text()).toContain('Step 2 of 2');
  });

  it('a journey that ends on failure answers journey.failed to an endpoint of its apps, signed as the apps\u2019 events are', async () => {
    const hook = await t.call('POST', '/e-form/webhooks', {
      as: OWNER,
      body: { url: `${receiver.url}/journeys`, eventTypes: ['journey.failed', 'journey.completed'] },
    });
    expect(hook.status, await hook.clone().text()).toBe(201);
    const { journey: sent, sms } = await send({ steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }] });
    const wrong = codeOf(sms[0]!) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await post(linkOf(sms[0]!), { code: wrong });
    expect(await journey(sent.id)).toMatchObject({ status: 'failed' });
    expect((await page(linkOf(sms[0]!))).status).toBe(410);
    await deliverWebhooksOnce(t.deps);
    const delivered = receiver.received.filter((r) => r.url.startsWith('/journeys'));
    expect(delivered).toHaveLength(1);
    const secret = ((await (await t.call('GET', '/accounts/developer', { as: OWNER })).json()) as { webhookSecret: string })
      .webhookSecret;
    const event = new Stripe('sk_test_unused').webhooks.constructEvent(
      delivered[0]!.body,
      String(delivered[0]!.headers['x-signature']),
      secret,
      300,
      undefined,
      Math.floor(Date.now() / 1000),
    ) as unknown as { type: string; data: Journey };
    expect(event).toMatchObject({ type: 'journey.failed', data: { id: sent.id, status: 'failed' } });
    expect(delivered[0]!.body).not.toContain(codeOf(sms[0]!));
  });

  it('the same Idempotency-Key sends one journey and one SMS', async () => {
    const phoneNumber = freshPhone();
    const headers = { 'Idempotency-Key': `journey-${phoneNumber}` };
    const a = await send({ phoneNumber, steps: [{ app: 'e-form', formId }] }, headers);
    const again = await v1(
      'POST',
      '/journeys',
      { phoneNumber, customerRef: 'CUST-9', agent: 'maya@acme.test', steps: [{ app: 'e-form', formId }] },
      headers,
    );
    expect(again.status).toBe(201);
    expect(((await again.json()) as Journey).id).toBe(a.journey.id);
    expect(await outbox(phoneNumber)).toHaveLength(1);
  });

  it('another account sees none of a journey: not its id, not its template, not its timeline', async () => {
    const tpl = await template({ name: 'Acme only', steps: [{ app: 'e-form', formId }] });
    const { journey: sent } = await send({ templateId: tpl.id });
    expect((await v1('GET', `/journeys/${sent.id}`, undefined, {}, globexKey)).status).toBe(404);
    const theirs = await v1('POST', '/journeys', { templateId: tpl.id, phoneNumber: freshPhone() }, {}, globexKey);
    expect(theirs.status).toBe(404);
    expect((await t.call('GET', `/journeys/${sent.id}`, { as: GLOBEX })).status).toBe(404);
    expect((await t.call('GET', `/journeys/templates/${tpl.id}`, { as: GLOBEX })).status).toBe(404);
    expect(
      (
        await t.call('PUT', `/journeys/templates/${tpl.id}`, {
          as: GLOBEX,
          body: { name: 'Mine', steps: [{ app: 'one-time-passcode' }] },
        })
      ).status,
    ).toBe(404);
    expect(((await (await t.call('GET', '/journeys', { as: GLOBEX })).json()) as Journey[]).map((j) => j.id)).not.toContain(
      sent.id,
    );
    // a step of another account's form is refused by e-form itself, as its own send would be
    const foreign = await v1(
      'POST',
      '/journeys',
      { steps: [{ app: 'e-form', formId }], phoneNumber: freshPhone() },
      {},
      globexKey,
    );
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("a journey's link opens nothing on another account's verified domain", async () => {
    const { sms } = await send({ steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }] });
    await t.db.system((trx) =>
      sql`update branding set domain = 'journeys.globex.test', domain_is_verified = true where account_id = ${t.account('globex').id}`.execute(
        trx,
      ),
    );
    try {
      const there = await t.app.request(linkOf(sms[0]!), { headers: { host: 'journeys.globex.test' } });
      expect(there.status).toBe(404);
      expect(await there.text()).not.toContain('Enter your code');
      expect((await page(linkOf(sms[0]!))).status).toBe(200);
    } finally {
      await t.db.system((trx) =>
        sql`update branding set domain = null, domain_is_verified = false where account_id = ${t.account('globex').id}`.execute(
          trx,
        ),
      );
    }
  });

  it('a step its app refuses is answered as that app answers it, and leaves no journey behind', async () => {
    const before = await t.db.system(async (trx) =>
      Number((await sql<{ n: number }>`select count(*)::int as n from journeys`.execute(trx)).rows[0]!.n),
    );
    const res = await v1('POST', '/journeys', {
      steps: [{ app: 'e-form', formId: '00000000-0000-4000-8000-000000000000' }],
      phoneNumber: freshPhone(),
    });
    expect(res.status).toBe(404);
    const after = await t.db.system(async (trx) =>
      Number((await sql<{ n: number }>`select count(*)::int as n from journeys`.execute(trx)).rows[0]!.n),
    );
    expect(after).toBe(before);
  });

  it('a journey with a step whose app is inactive is refused before anything is sent', async () => {
    const phoneNumber = freshPhone();
    await t.db.system((trx) =>
      sql`update app_billing set status = 'inactive' where account_id = ${t.account('acme').id} and app = 'payments'`.execute(
        trx,
      ),
    );
    const res = await v1('POST', '/journeys', {
      steps: [
        { app: 'e-form', formId },
        { app: 'payments', amount: 500, description: 'Deposit' },
      ],
      phoneNumber,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'APP_NOT_ACTIVE', message: expect.stringContaining('Payments') });
    expect(await outbox(phoneNumber)).toHaveLength(0);
  });

  it('steps break no rule of the builder: a passcode only first, a signature needs the name', async () => {
    const late = await t.call('POST', '/journeys/templates', {
      as: OWNER,
      body: { name: 'Late code', steps: [{ app: 'e-form', formId }, { app: 'one-time-passcode' }] },
    });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('first step') });
    const both = await v1('POST', '/journeys', {
      templateId: '00000000-0000-4000-8000-000000000000',
      steps: [{ app: 'one-time-passcode' }],
      phoneNumber: freshPhone(),
    });
    expect(both.status).toBe(400);
    const unnamed = await v1('POST', '/journeys', {
      steps: [{ app: 'document-signature', documentId: '00000000-0000-4000-8000-000000000000' }],
      phoneNumber: freshPhone(),
    });
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toMatchObject({ fields: { customerName: expect.any(String) } });
  });

  it('an optional step can be skipped from the page', async () => {
    const { journey: sent, sms } = await send({
      steps: [
        { app: 'e-form', formId, optional: true },
        { app: 'e-form', formId },
      ],
    });
    const link = linkOf(sms[0]!);
    const html = await (await page(link)).text();
    expect(html).toContain('Skip this step');
    const skipped = await (
      await page(`${link}?skip=0`, {
        method: 'POST',
        body: new URLSearchParams({}),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).text();
    expect(skipped).toContain('Step 2 of 2');
    expect(skipped).not.toContain('Skip this step');
    expect((await journey(sent.id)).steps.map((s) => s.status)).toEqual(['skipped', 'active']);
  });

  it('the journey detail has its timeline, and the Arabic page reads right to left', async () => {
    const { journey: sent, sms } = await send({ steps: [{ app: 'one-time-passcode' }, { app: 'e-form', formId }], locale: 'ar' });
    const html = await (await page(linkOf(sms[0]!))).text();
    expect(html).toContain('dir="rtl"');
    expect(html).toContain('الخطوة 1 من 2');
    const detail = (await (await t.call('GET', `/journeys/${sent.id}`, { as: OWNER })).json()) as JourneyDetail;
    expect(detail.timeline.map((e) => e.type)).toEqual(['step_sent', 'sent']);
  });

  it('after the form, the signature step opens with the document to sign, and signing it moves the journey on', async () => {
    expect([201, 409]).toContain(
      (await t.call('POST', '/document-signature/billing/free-trial', { as: OWNER, body: {} })).status,
    );
    const doc = await publishedDocument(t);
    const { journey: sent, sms } = await send({
      steps: [
        { app: 'e-form', formId },
        { app: 'document-signature', documentId: doc.id },
      ],
      customerName: 'Grace Hopper',
    });
    const link = linkOf(sms[0]!);
    const data = new FormData();
    data.append('name', 'Grace Hopper');
    const html = await (await page(link, { method: 'POST', body: data })).text();
    expect(html, html.slice(html.indexOf('<main'), html.indexOf('</main>'))).toContain('Step 2 of 2');
    expect(html).toContain('Service agreement');
    const signed = await (
      await post(link, {
        action: 'sign',
        field_name1: 'Grace Hopper',
        sig_typed_sig1: 'Grace Hopper',
        field_ok1: 'on',
        consent: 'on',
      })
    ).text();
    expect(signed, signed.slice(signed.indexOf('<main'), signed.indexOf('</main>'))).toContain('All done');
    expect(await journey(sent.id)).toMatchObject({ status: 'completed' });
  });

  it('GET /api/v1/journeys/{id} and its send are in the OpenAPI document', async () => {
    const doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/journeys']!)).toContain('post');
    expect(Object.keys(doc.paths['/journeys/{id}']!)).toContain('get');
  });

  // last: it moves the clock on
  it('a journey nobody opens again expires on its own: the sweep sends journey.expired', async () => {
    const hook = await t.call('POST', '/e-form/webhooks', {
      as: OWNER,
      body: { url: `${receiver.url}/expiring`, eventTypes: ['journey.expired'] },
    });
    expect(hook.status).toBe(201);
    const { journey: sent } = await send({ steps: [{ app: 'e-form', formId }] });
    await sweepJourneys(t.deps);
    expect(
      (await t.db.system((trx) => sql<{ status: string }>`select status from journeys where id = ${sent.id}`.execute(trx)))
        .rows[0]!.status,
    ).toBe('active');
    t.clock.now = new Date(t.clock.now.getTime() + 25 * 3_600_000);
    expect(await sweepJourneys(t.deps)).toBeGreaterThanOrEqual(1);
    expect(
      (await t.db.system((trx) => sql<{ status: string }>`select status from journeys where id = ${sent.id}`.execute(trx)))
        .rows[0]!.status,
    ).toBe('expired');
    await deliverWebhooksOnce(t.deps);
    const delivered = receiver.received.filter((r) => r.url.startsWith('/expiring'));
    expect(delivered.map((r) => (JSON.parse(r.body) as { type: string; data: { id: string } }).data.id)).toContain(sent.id);
  });
});
