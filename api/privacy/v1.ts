import {
  CustomerDataSchema,
  PrivacyRequestIdParamSchema,
  PrivacyRequestSchema,
  PrivacySubjectSchema,
  type PrivacySubject,
} from '../contract/privacy';
import { v1Caller } from '../apps/platform/v1-operations';
import type { V1Operation } from '../apps/platform/v1-spec';
import { registerSharedV1 } from '../apps/platform/registry';
import { findCustomerData, getPrivacyRequest, requestErasure, requestExport, type Requester } from './service';

// /api/v1 for a caller's data: the same service functions as the console's Customer data screen.
// The caller is named in the body, so a phone number never sits in a URL (or an access log).

const TAG = 'Privacy';
export const PRIVACY_TAG_DESCRIPTION =
  "A caller's data on request: what is held, erasure (Art. 17 GDPR) and export (Art. 15 and 20).";

const apiRequester = (c: Parameters<V1Operation['handler']>[0]): Requester => {
  const caller = v1Caller(c, null);
  return { actor: caller.actor, name: caller.label, via: 'api' };
};

const NOT_FOUND = { status: 404, code: 'NOT_FOUND', description: 'The calling account has no request with this id.' } as const;

type Kind = 'erasure' | 'export';
type Described = { kind: Kind; operationId: string; summary: string; description: string };

/** POST /{kind}-requests: a new request (201), or the open one for the same caller (200). */
const requestOperation = (o: Described & { run: typeof requestErasure }): V1Operation => ({
  method: 'post',
  path: `/${o.kind}-requests`,
  operationId: o.operationId,
  summary: o.summary,
  description: o.description,
  tag: TAG,
  body: PrivacySubjectSchema,
  answer: PrivacyRequestSchema,
  statuses: [201, 200],
  errors: [],
  async handler(c, { body }) {
    const { request, created } = await o.run(c.var.deps, c.var.apiAccountId, body as PrivacySubject, apiRequester(c));
    return { status: created ? 201 : 200, answer: request };
  },
});

/** GET /{kind}-requests/{id}: the request as it stands. */
const getOperation = (o: Described): V1Operation => ({
  method: 'get',
  path: `/${o.kind}-requests/:id`,
  operationId: o.operationId,
  summary: o.summary,
  description: o.description,
  tag: TAG,
  params: PrivacyRequestIdParamSchema,
  answer: PrivacyRequestSchema,
  statuses: [200],
  errors: [NOT_FOUND],
  async handler(c, { params }) {
    return { status: 200, answer: await getPrivacyRequest(c.var.deps, c.var.apiAccountId, params.id!, o.kind) };
  },
});

export const PRIVACY_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/customer-data/search',
    operationId: 'searchCustomerData',
    summary: 'Find what is held about a caller',
    description:
      "Counts, by app and by store, every record the account holds about one caller: give phoneNumber (any spelling with a country code: spaces, dots, dashes and brackets are ignored) or customerRef. Records found by one are followed to the other (a number's records name its customer references and back). Signature requests under a legal hold are counted in legalHolds.",
    tag: TAG,
    body: PrivacySubjectSchema,
    answer: CustomerDataSchema,
    statuses: [200],
    errors: [],
    async handler(c, { body }) {
      return { status: 200, answer: await findCustomerData(c.var.deps, c.var.apiAccountId, body as PrivacySubject) };
    },
  },
  requestOperation({
    kind: 'erasure',
    operationId: 'requestErasure',
    summary: "Erase a caller's data",
    description:
      "Redacts every record of one caller across the six apps and the shared stores (SMS outbox and message log, stored idempotent answers, webhook events and log shipments, audit entries), deletes their files (in the account's S3 bucket too) and asks Twilio to delete its copy of each message. Records stay for counts and billing without their personal fields. Signed documents under a legal hold are kept and listed in `held`. Answers the receipt (counts per store, no personal data): 201 for a new request, 200 when one for the same caller is still being worked on (asking again is safe). A request interrupted halfway is finished by the next call or by the server's job: `state` is then `running` until it is done.",
    run: requestErasure,
  }),
  getOperation({
    kind: 'erasure',
    operationId: 'getErasureRequest',
    summary: 'Get an erasure request',
    description:
      'The receipt of an erasure request: its state, what was erased by store, what is kept under a legal hold, who asked and when.',
  }),
  requestOperation({
    kind: 'export',
    operationId: 'requestExport',
    summary: "Export a caller's data",
    description:
      'Asks for a ZIP of everything held about one caller: a JSON document per app and the files beside it. Answers at once with the request (`state` `pending`); a job makes the ZIP, usually within a minute: ask for the request (GET /export-requests/{id}) until `state` is `done`, when `downloadUrl` is a signed link that works for 10 minutes (ask again for a fresh one). 201 for a new request, 200 when one for the same caller is still being made.',
    run: requestExport,
  }),
  getOperation({
    kind: 'export',
    operationId: 'getExportRequest',
    summary: 'Get an export request',
    description: 'The export request with, once done, a fresh 10-minute download link.',
  }),
];

// registered as /api/v1 operations of no one app (api/app.ts imports this module)
registerSharedV1({ tag: TAG, description: PRIVACY_TAG_DESCRIPTION, ops: PRIVACY_V1 });
