import {
  SigAgentBodySchema,
  SigIdParamSchema,
  SigRequestSchema,
  SigSendBodySchema,
  type SigSendBody,
} from '../../contract/apps/document-signature';
import { apiCaller } from '../platform/caller';
import { requestOrigin } from '../platform/console-routes';
import type { V1Operation } from '../platform/v1-spec';
import { cancelRequest, getRequest, resendRequest, sendForSignature } from './service';

const TAG = 'Document Signature';
const notFound = { status: 404, code: 'NOT_FOUND' };
const notOpen = { status: 409, code: 'NOT_OPEN' };

export const SIG_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/signatures',
    operationId: 'sendForSignature',
    summary: 'Send a document for signature',
    description:
      'Texts signerName a link to read and sign a published version of the document (the newest, unless version names one). The request records that version: later edits never change what was sent. It expires after expiresInDays (the default from Configuration > General).',
    tag: TAG,
    body: SigSendBodySchema,
    answer: SigRequestSchema,
    statuses: [201],
    errors: [
      { status: 402, code: 'FREE_TIER_EXHAUSTED' },
      { status: 403, code: 'APP_NOT_ACTIVE' },
      notFound,
      { status: 409, code: 'VERSION_NOT_PUBLISHED' },
      { status: 409, code: 'SMS_NOT_CONFIGURED' },
      { status: 502, code: 'SMS_NOT_DELIVERED' },
    ],
    async handler(c, { body }) {
      const input = body as SigSendBody;
      const origin = requestOrigin(c as never);
      return { status: 201, answer: await sendForSignature(c.var.deps, c.var.apiAccountId, input, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'get',
    path: '/signatures/:id',
    operationId: 'getSignatureRequest',
    summary: 'Get a signature request',
    description: 'Statuses: sent, opened, signed (sealing), completed (sealed), declined, expired, cancelled.',
    tag: TAG,
    params: SigIdParamSchema,
    answer: SigRequestSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { params }) {
      return { status: 200, answer: await getRequest(c.var.deps, c.var.apiAccountId, params.id!) };
    },
  },
  {
    method: 'post',
    path: '/signatures/:id/cancel',
    operationId: 'cancelSignatureRequest',
    summary: 'Cancel a signature request',
    tag: TAG,
    params: SigIdParamSchema,
    body: SigAgentBodySchema,
    answer: SigRequestSchema,
    statuses: [200],
    errors: [notFound, notOpen],
    async handler(c, { params, body }) {
      const origin = requestOrigin(c as never);
      return { status: 200, answer: await cancelRequest(c.var.deps, c.var.apiAccountId, params.id!, apiCaller((body as { agent?: string | null }).agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'post',
    path: '/signatures/:id/resend',
    operationId: 'resendSignatureRequest',
    summary: 'Send the link again',
    description: 'Texts a new link; the previous link stops working. The expiry does not change.',
    tag: TAG,
    params: SigIdParamSchema,
    body: SigAgentBodySchema,
    answer: SigRequestSchema,
    statuses: [200],
    errors: [notFound, notOpen, { status: 502, code: 'SMS_NOT_DELIVERED' }],
    async handler(c, { params, body }) {
      const origin = requestOrigin(c as never);
      return { status: 200, answer: await resendRequest(c.var.deps, c.var.apiAccountId, params.id!, apiCaller((body as { agent?: string | null }).agent, origin.ip, origin.userAgent)) };
    },
  },
];
