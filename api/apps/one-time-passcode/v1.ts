import {
  OtpCancelBodySchema,
  OtpCheckBodySchema,
  OtpIdParamSchema,
  OtpSendBodySchema,
  OtpVerificationSchema,
  type OtpCheckBody,
  type OtpSendBody,
} from '../../contract/apps/one-time-passcode';
import { apiCaller } from '../platform/caller';
import { requestOrigin } from '../platform/console-routes';
import type { V1Operation } from '../platform/v1-spec';
import { cancelVerification, checkPasscode, getVerification, sendPasscode } from './service';

const TAG = 'One-Time Passcode';
const notFound = { status: 404, code: 'NOT_FOUND' };
const appGate = [
  { status: 402, code: 'FREE_TIER_EXHAUSTED' },
  { status: 403, code: 'APP_NOT_ACTIVE' },
];

export const OTP_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/otp/send',
    operationId: 'sendPasscode',
    summary: 'Send a passcode',
    description:
      'Texts a one-time passcode to phoneNumber through the account\'s SMS Configuration. While a verification for the same number is pending, the same code is sent again (a resend counts as a send) and the answer is 200 with that verification.',
    tag: TAG,
    body: OtpSendBodySchema,
    answer: OtpVerificationSchema,
    statuses: [201, 200],
    errors: [...appGate, { status: 409, code: 'SMS_NOT_CONFIGURED' }, { status: 429, code: 'TOO_MANY_SENDS' }],
    async handler(c, { body }) {
      const input = body as OtpSendBody;
      const origin = requestOrigin(c as never);
      const { verification, created } = await sendPasscode(c.var.deps, c.var.apiAccountId, input, apiCaller(input.agent, origin.ip, origin.userAgent));
      return { status: created ? 201 : 200, answer: verification };
    },
  },
  {
    method: 'post',
    path: '/otp/check',
    operationId: 'checkPasscode',
    summary: 'Check a code',
    description: 'Answers the verification with its status: approved, pending (wrong code, attempts left), max_attempts_reached, expired or canceled.',
    tag: TAG,
    body: OtpCheckBodySchema,
    answer: OtpVerificationSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { body }) {
      const input = body as OtpCheckBody;
      const origin = requestOrigin(c as never);
      return { status: 200, answer: await checkPasscode(c.var.deps, c.var.apiAccountId, input.id, input.code, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'get',
    path: '/otp/:id',
    operationId: 'getVerification',
    summary: 'Get a verification',
    tag: TAG,
    params: OtpIdParamSchema,
    answer: OtpVerificationSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { params }) {
      return { status: 200, answer: await getVerification(c.var.deps, c.var.apiAccountId, params.id!) };
    },
  },
  {
    method: 'post',
    path: '/otp/:id/cancel',
    operationId: 'cancelVerification',
    summary: 'Cancel a verification',
    tag: TAG,
    params: OtpIdParamSchema,
    body: OtpCancelBodySchema,
    answer: OtpVerificationSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { params, body }) {
      const origin = requestOrigin(c as never);
      const agent = (body as { agent?: string | null }).agent;
      return { status: 200, answer: await cancelVerification(c.var.deps, c.var.apiAccountId, params.id!, apiCaller(agent, origin.ip, origin.userAgent)) };
    },
  },
];
