import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { ADMIN, lastLink, page, publishedDocument, signatureTrial, v1 } from '../support/signature-flow';
import { sealRequest } from '../../api/apps/document-signature/service';
import type { SigDocument, SigRequest } from '../../api/contract/apps/document-signature';
import type { CustomerData, PrivacyRequest } from '../../api/contract/privacy';
import { unzip } from '../support/zip';
import { runOpenExports } from '../../api/privacy/service';

// Erasure on request (issue 42): one caller's records across the apps and the shared stores are
// redacted, their files deleted, a legal hold respected, and a receipt left that names no one.
// On both databases: the batches lock rows with skip locked and row-level security scopes every
// store to the account, which is where PGlite and PostgreSQL could differ.

const PHONE = '+14156661900';
const SPELLED = '+1 (415) 666-19.00';
const SIGNER = 'Ada Quartermaine';
const REF = 'CUST-ERASE-1';
/** A 1×1 PNG, as a signature pad's canvas would give */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function sendSig(
  t: TestContext,
  key: string,
  doc: SigDocument,
  phone: string,
  signer: string,
  drawn: boolean,
): Promise<SigRequest> {
  // each send a second later, so the outbox's newest message to the number is this one's
  t.clock.now = new Date(t.clock.now.getTime() + 1000);
  const sent = (await (
    await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: signer, customerRef: REF })
  ).json()) as SigRequest;
  const token = await lastLink(t, phone);
  const signature: Record<string, string> = drawn
    ? { sig_png_sig1: `data:image/png;base64,${PNG}` }
    : { sig_typed_sig1: `${signer} (typed)` };
  expect(
    (await page(t, token, { action: 'sign', ...signature, field_name1: signer, field_ok1: 'on', consent: 'on' })).status,
  ).toBe(200);
  const acme = t.account('acme').id;
  await sealRequest(t.deps, acme, sent.id);
  return sent;
}

const search = async (t: TestContext, as: string, body: unknown) =>
  (await t.call('POST', '/privacy/search', { as, body })).json() as Promise<CustomerData>;
const storeCount = (data: CustomerData, store: string) =>
  data.apps.flatMap((a) => a.stores).find((s) => s.store === store)?.count ?? 0;

describe.each(BOTH_DATABASE_KINDS)("Erasing a caller's data (%s)", (kind) => {
  const t = useTestContext(kind);
  let key: string;
  let drawnRequest: SigRequest;
  let heldRequest: SigRequest;
  let globexKey: string;
  const acme = () => t.account('acme').id;
  const globex = () => t.account('globex').id;

  beforeAll(async () => {
    key = await signatureTrial(t);
    const doc = await publishedDocument(t);
    drawnRequest = await sendSig(t, key, doc, PHONE, SIGNER, true);
    heldRequest = await sendSig(t, key, doc, PHONE, SIGNER, false);
    await t.call('POST', '/one-time-passcode/billing/free-trial', { as: ADMIN, body: {} });
    expect((await v1(t, key, 'POST', '/otp/send', { phoneNumber: PHONE, customerRef: REF })).status).toBe(201);
    // a payment request as the Payments service writes it (Stripe itself is another file's peer)
    await t.db.tenant(acme(), (trx) =>
      sql`insert into payments (id, account_id, stripe_account_id, phone_number, customer_ref, agent, status, amount, currency, description, checkout_url, created_at, expires_at)
        values ('9d3c2a41-5b6e-4f70-8a91-0c2d3e4f5a6b', ${acme()}, 'acct_1', ${PHONE}, ${REF}, null, 'succeeded', 1200, 'usd', 'Invoice 77', 'https://checkout.example/c/1', now(), now())`.execute(
        trx,
      ),
    );
    // Globex has a caller with the same number: never seen nor touched from Acme
    await t.call('POST', '/one-time-passcode/billing/free-trial', { as: 'owner@globex.test', body: {} });
    expect((await t.call('POST', '/sms', { as: 'owner@globex.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    globexKey = (
      (await (await t.call('GET', '/accounts/developer', { as: 'owner@globex.test' })).json()) as { secretKey: string }
    ).secretKey;
    expect((await v1(t, globexKey, 'POST', '/otp/send', { phoneNumber: PHONE, customerRef: REF })).status).toBe(201);
  });

  it('the search finds the caller by any spelling of the number, by app, and only in its own account', async () => {
    const data = await search(t, ADMIN, { phoneNumber: SPELLED });
    expect(data.apps.map((a) => a.app).sort()).toEqual(['document-signature', 'one-time-passcode', 'payments', 'platform']);
    expect(storeCount(data, 'signature.requests')).toBe(2);
    expect(storeCount(data, 'otp.verifications')).toBe(1);
    expect(storeCount(data, 'payments.payments')).toBe(1);
    expect(storeCount(data, 'sms.outbox')).toBe(5); // two signature links, two signer copies, one passcode
    const byRef = await search(t, ADMIN, { customerRef: REF });
    expect(byRef.total).toBe(data.total);
    const theirs = await search(t, 'owner@globex.test', { phoneNumber: PHONE });
    expect(storeCount(theirs, 'otp.verifications')).toBe(1);
    expect(theirs.apps.map((a) => a.app)).not.toContain('document-signature');
  });

  it("an export holds this account's records of the caller and none of another account's", async () => {
    const res = await t.call('POST', '/privacy/export-requests', { as: ADMIN, body: { phoneNumber: PHONE } });
    const asked = (await res.json()) as PrivacyRequest;
    // answered at once; the privacy.exports job makes the ZIP
    expect(asked).toMatchObject({ state: 'pending', downloadUrl: null });
    expect(await runOpenExports(t.deps)).toBe(1);
    const request = (await (await t.call('GET', `/privacy/requests/${asked.id}`, { as: ADMIN })).json()) as PrivacyRequest;
    expect(request).toMatchObject({ state: 'done', counts: { 'otp.verifications': 1, 'signature.requests': 2 } });
    const entries = await unzip(Buffer.from(await (await t.app.request(request.downloadUrl!)).arrayBuffer()));
    const otp = JSON.parse(entries.find((e) => e.name === 'one-time-passcode.json')!.bytes.toString('utf8'))['otp.verifications']
      .records as { id: string }[];
    const theirs = await t.db.tenant(globex(), (trx) =>
      sql<{
        id: string;
      }>`select id::text from otp_verifications where account_id = ${globex()} and phone_number = ${PHONE}`.execute(trx),
    );
    expect(theirs.rows.length).toBe(1);
    expect(otp.map((r) => r.id)).not.toContain(theirs.rows[0]!.id);
    expect(otp.length).toBe(1);
    expect((await t.call('GET', `/privacy/requests/${request.id}`, { as: 'owner@globex.test' })).status).toBe(404);
  });

  it('the search and the erasure are for admins only, and ask for exactly one of number and reference', async () => {
    expect((await t.call('POST', '/privacy/search', { as: 'supervisor@acme.test', body: { phoneNumber: PHONE } })).status).toBe(
      403,
    );
    expect(
      (await t.call('POST', '/privacy/erasure-requests', { as: 'supervisor@acme.test', body: { phoneNumber: PHONE } })).status,
    ).toBe(403);
    const both = await t.call('POST', '/privacy/search', { as: ADMIN, body: { phoneNumber: PHONE, customerRef: REF } });
    expect(both.status).toBe(400);
    expect((await both.json()).fields).toEqual({ phoneNumber: 'Give either phoneNumber or customerRef' });
    expect((await t.call('POST', '/privacy/search', { as: ADMIN, body: { phoneNumber: '12' } })).status).toBe(400);
  });

  it('an admin puts a signature request under a legal hold with a reason', async () => {
    expect((await t.call('PUT', `/privacy/legal-holds/${heldRequest.id}`, { as: ADMIN, body: { reason: ' ' } })).status).toBe(
      400,
    );
    const res = await t.call('PUT', `/privacy/legal-holds/${heldRequest.id}`, {
      as: ADMIN,
      body: { reason: 'Dispute 2026-114' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).legalHold).toMatchObject({ reason: 'Dispute 2026-114' });
    const got = await t.call('GET', `/privacy/legal-holds/${heldRequest.id}`, { as: ADMIN });
    expect((await got.json()).legalHold).toMatchObject({ reason: 'Dispute 2026-114', by: 'Olivia Owens' });
    expect((await t.call('GET', `/privacy/legal-holds/${heldRequest.id}`, { as: 'owner@globex.test' })).status).toBe(404);
    expect((await search(t, ADMIN, { phoneNumber: PHONE })).legalHolds).toBe(1);
  });

  it('erasure redacts every record and file of the caller, keeps the held document and leaves a receipt without personal data', async () => {
    const files = await t.db.tenant(acme(), (trx) =>
      sql<{
        id: string;
      }>`select signed_file_id::text as id from sig_requests where id = ${drawnRequest.id} union all select image_file_id::text from sig_field_values where request_id = ${drawnRequest.id} and image_file_id is not null`.execute(
        trx,
      ),
    );
    expect(files.rows.length).toBe(2);
    const res = await t.call('POST', '/privacy/erasure-requests', { as: ADMIN, body: { phoneNumber: SPELLED } });
    expect(res.status).toBe(200);
    const receipt = (await res.json()) as PrivacyRequest;
    expect(receipt).toMatchObject({ kind: 'erasure', state: 'done', subjectKind: 'phone', requestedVia: 'console' });
    expect(receipt.counts).toMatchObject({
      'signature.requests': 1,
      'otp.verifications': 1,
      'payments.payments': 1,
      'sms.outbox': 5,
    });
    expect(receipt.held).toEqual([{ requestId: heldRequest.id, since: expect.any(String) }]);

    const left = await search(t, ADMIN, { phoneNumber: PHONE });
    expect(
      left.apps
        .flatMap((a) => a.stores)
        .filter((s) => s.store !== 'signature.requests' && s.store !== 'tasks.timeline' && s.store !== 'audit.entries')
        .map((s) => s.store),
    ).toEqual([]);
    expect(storeCount(left, 'signature.requests')).toBe(1);
    const deleted = await t.db.tenant(acme(), (trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from stored_files where id = any(${files.rows.map((r) => r.id)}::uuid[]) and deleted_at is not null and bytes is null`.execute(
        trx,
      ),
    );
    expect(deleted.rows[0]!.n).toBe(2);
    const sig = await t.db.tenant(acme(), (trx) =>
      sql<{
        signer_name: string;
        phone_number: string;
        signer_ip: string | null;
      }>`select signer_name, phone_number, signer_ip from sig_requests where id = ${drawnRequest.id}`.execute(trx),
    );
    expect(sig.rows[0]).toEqual({ signer_name: '[erased]', phone_number: '[erased]', signer_ip: null });
    const held = await t.db.tenant(acme(), (trx) =>
      sql<{
        signer_name: string;
        signed_file_id: string | null;
      }>`select signer_name, signed_file_id from sig_requests where id = ${heldRequest.id}`.execute(trx),
    );
    expect(held.rows[0]).toMatchObject({ signer_name: SIGNER, signed_file_id: expect.any(String) });
    // the signer's copy link (issue 40) and every other link of the erased request open nothing now
    const links = await t.db.tenant(acme(), (trx) =>
      sql<{
        purpose: string;
        revoked: boolean;
      }>`select purpose, revoked_at is not null as revoked from link_tokens where task_id = ${drawnRequest.id}`.execute(trx),
    );
    expect(links.rows.map((l) => l.purpose)).toContain('sign-copy');
    expect(links.rows.every((l) => l.revoked)).toBe(true);
    const payment = await t.db.tenant(acme(), (trx) =>
      sql<{
        phone_number: string;
        amount: number;
      }>`select phone_number, amount from payments where id = '9d3c2a41-5b6e-4f70-8a91-0c2d3e4f5a6b'`.execute(trx),
    );
    expect(payment.rows[0]).toEqual({ phone_number: '[erased]', amount: 1200 });

    const download = await t.call('GET', `/privacy/requests/${receipt.id}/receipt`, { as: ADMIN });
    expect(download.headers.get('content-disposition')).toContain('attachment');
    const text = await download.text();
    expect(text).toContain('"signature.requests": 1');
    for (const personal of [PHONE, REF, SIGNER]) expect(text).not.toContain(personal);
    const log = await t.db.tenant(acme(), (trx) =>
      sql<{
        description: string;
        event: string;
      }>`select description, event from audit_log where account_id = ${acme()} order by id desc limit 400`.execute(trx),
    );
    expect(log.rows.find((r) => r.event === 'privacy.erased')?.description).toContain(receipt.id);
    // every entry that quoted the caller (outside the held document's own entries) now does not
    const quoting = log.rows.filter((r) => r.description.includes(PHONE) || r.description.includes(REF));
    expect(quoting).toEqual([]);
  });

  it("another account's caller with the same number is untouched", async () => {
    const theirs = await search(t, 'owner@globex.test', { phoneNumber: PHONE });
    expect(storeCount(theirs, 'otp.verifications')).toBe(1);
    const row = await t.db.tenant(globex(), (trx) =>
      sql<{
        phone_number: string;
      }>`select phone_number from otp_verifications where account_id = ${globex()} and customer_ref = ${REF}`.execute(trx),
    );
    expect(row.rows).toEqual([{ phone_number: PHONE }]);
  });

  it('asking again through /api/v1 is safe: a new receipt that finds only the held document', async () => {
    const res = await v1(t, key, 'POST', '/erasure-requests', { customerRef: REF });
    expect(res.status).toBe(201);
    const again = (await res.json()) as PrivacyRequest;
    expect(again).toMatchObject({ state: 'done', requestedVia: 'api', counts: {} });
    expect(again.held.map((h) => h.requestId)).toEqual([heldRequest.id]);
    const got = await v1(t, key, 'GET', `/erasure-requests/${again.id}`);
    expect(await got.json()).toEqual(again);
    expect((await v1(t, globexKey, 'GET', `/erasure-requests/${again.id}`)).status).toBe(404);
  });
});
