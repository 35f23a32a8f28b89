import { expect } from 'vitest';
import type { TestContext } from '../api/helpers';
import { makePdf } from './pdfs';
import type { SigDocument, SigRequest } from '../../api/contract/apps/document-signature';

// The Document Signature flow as the API tests drive it: an admin uploads and publishes a
// document, a request goes out by /api/v1, the customer's page is opened and answered.

export const ADMIN = 'owner@acme.test';
export const SIGNATURE = {
  id: 'sig1',
  kind: 'signature',
  page: 0,
  x: 0.1,
  y: 0.7,
  w: 0.4,
  h: 0.08,
  label: 'Signature',
  required: true,
} as const;
export const NAME = {
  id: 'name1',
  kind: 'fullName',
  page: 0,
  x: 0.1,
  y: 0.6,
  w: 0.4,
  h: 0.04,
  label: 'Full name',
  required: true,
} as const;
export const AGREE = {
  id: 'ok1',
  kind: 'checkbox',
  page: 1,
  x: 0.1,
  y: 0.2,
  w: 0.04,
  h: 0.03,
  label: 'I read page 2',
  required: true,
} as const;

/** Acme on the app's free trial with the development SMS outbox: its /api/v1 secret key. */
export async function signaturesReady(t: TestContext): Promise<string> {
  expect((await t.call('POST', '/document-signature/billing/free-trial', { as: ADMIN, body: {} })).status).toBe(201);
  expect((await t.call('POST', '/sms', { as: ADMIN, body: { provider: 'dev-outbox' } })).status).toBe(200);
  return ((await (await t.call('GET', '/accounts/developer', { as: ADMIN })).json()) as { secretKey: string }).secretKey;
}

export async function upload(
  t: TestContext,
  bytes: Uint8Array,
  as = ADMIN,
  name = 'Service agreement',
  fileName = 'agreement.pdf',
) {
  return t.app.request(`/api/document-signature/documents?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await t.tokenFor(as)}`, 'content-type': 'application/pdf', 'x-file-name': fileName },
    body: Buffer.from(bytes),
  });
}

export async function v1(t: TestContext, key: string, method: string, p: string, body?: unknown) {
  return t.call(method, `/v1${p}`, { body, headers: { authorization: `Bearer ${key}` } });
}

/** The link the development outbox holds for a number: its token. */
export async function lastLink(t: TestContext, to: string): Promise<string> {
  const res = await t.call('GET', '/dev/sms-outbox', { as: ADMIN });
  const list = (await res.json()) as { to: string; body: string }[];
  return list.find((m) => m.to === to)!.body.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
}

export async function page(t: TestContext, token: string, form?: Record<string, string>, ua = 'Mozilla/5.0 (Signer phone)') {
  return t.app.request(`/c/${token}`, {
    method: form ? 'POST' : 'GET',
    headers: {
      'user-agent': ua,
      'x-forwarded-for': '203.0.113.9',
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

export async function publishedDocument(t: TestContext): Promise<SigDocument> {
  const doc = (await (await upload(t, await makePdf(2))).json()) as SigDocument;
  expect(
    (
      await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, {
        as: ADMIN,
        body: { name: 'Service agreement', fields: [SIGNATURE, NAME, AGREE] },
      })
    ).status,
  ).toBe(200);
  expect((await t.call('POST', `/document-signature/documents/${doc.id}/publish`, { as: ADMIN, body: {} })).status).toBe(201);
  return doc;
}

let counter = 0;
export const freshPhone = () => `+1415666${String(1000 + counter++).padStart(4, '0')}`;

/** Sends the document and has the customer sign it (typed signature, or drawn when `png` is given). */
export async function signedRequest(
  t: TestContext,
  key: string,
  doc: SigDocument,
  signer = 'Grace Hopper',
  png?: Buffer,
): Promise<SigRequest> {
  const phone = freshPhone();
  const sent = (await (
    await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: signer })
  ).json()) as SigRequest;
  const token = await lastLink(t, phone);
  const signature: Record<string, string> = png
    ? { sig_png_sig1: `data:image/png;base64,${png.toString('base64')}` }
    : { sig_typed_sig1: `${signer} (typed)` };
  const res = await page(t, token, { action: 'sign', ...signature, field_name1: signer, field_ok1: 'on', consent: 'on' });
  expect(res.status).toBe(200);
  return sent;
}

/** Document Signature on a trial with the development outbox for SMS; the account's /api/v1 key. */
export async function signatureTrial(t: TestContext): Promise<string> {
  expect((await t.call('POST', '/document-signature/billing/free-trial', { as: ADMIN, body: {} })).status).toBe(201);
  expect((await t.call('POST', '/sms', { as: ADMIN, body: { provider: 'dev-outbox' } })).status).toBe(200);
  return ((await (await t.call('GET', '/accounts/developer', { as: ADMIN })).json()) as { secretKey: string }).secretKey;
}
