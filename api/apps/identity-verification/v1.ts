import {
  IdvCancelBodySchema,
  IdvIdParamSchema,
  IdvSessionSchema,
  IdvStartBodySchema,
  type IdvStartBody,
} from '../../contract/apps/identity-verification';
import { apiCaller } from '../platform/caller';
import { requestOrigin } from '../platform/console-routes';
import type { V1Operation } from '../platform/v1-spec';
import { cancelSession, getSession, startSession } from './service';

const TAG = 'Identity Verification';
const notFound = { status: 404, code: 'NOT_FOUND' };

export const IDV_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/idv/sessions',
    operationId: 'startIdentityVerification',
    summary: 'Start an identity verification',
    description:
      "Texts the customer a link (through the account's SMS Configuration) to photograph their ID (front, and back where it has one) and take a selfie. A reviewer decides in the console; follow the session with GET or the idv.session.* webhooks. expectedName and expectedDateOfBirth (YYYY-MM-DD) are compared with the document's machine-readable zone.",
    tag: TAG,
    body: IdvStartBodySchema,
    answer: IdvSessionSchema,
    statuses: [201],
    errors: [{ status: 409, code: 'SMS_NOT_CONFIGURED' }],
    async handler(c, { body }) {
      const input = body as IdvStartBody;
      const origin = requestOrigin(c as never);
      return { status: 201, answer: await startSession(c.var.deps, c.var.apiAccountId, input, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'get',
    path: '/idv/sessions/:id',
    operationId: 'getIdentityVerification',
    summary: 'Get an identity verification',
    description: 'The session with its status and the result of each check (never the photos or the document data).',
    tag: TAG,
    params: IdvIdParamSchema,
    answer: IdvSessionSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { params }) {
      return { status: 200, answer: await getSession(c.var.deps, c.var.apiAccountId, params.id!) };
    },
  },
  {
    method: 'post',
    path: '/idv/sessions/:id/cancel',
    operationId: 'cancelIdentityVerification',
    summary: 'Cancel an identity verification',
    tag: TAG,
    params: IdvIdParamSchema,
    body: IdvCancelBodySchema,
    answer: IdvSessionSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { params, body }) {
      const origin = requestOrigin(c as never);
      const agent = (body as { agent?: string | null }).agent;
      return { status: 200, answer: await cancelSession(c.var.deps, c.var.apiAccountId, params.id!, apiCaller(agent, origin.ip, origin.userAgent)) };
    },
  },
];
