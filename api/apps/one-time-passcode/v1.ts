import {
  OtpCancelBodySchema,
  OtpCheckBodySchema,
  OtpIdParamSchema,
  OtpSendBodySchema,
  OtpVerificationSchema,
  type OtpCheckBody,
  type OtpSendBody,
} from '../../contract/apps/one-time-passcode';
import { V1_APP_GATE, V1_SMS_SEND, V1_NOT_FOUND, v1Caller, v1Get, v1TaskAction } from '../platform/v1-operations';
import type { V1Operation } from '../platform/v1-spec';
import { cancelVerification, checkPasscode, getVerification, sendPasscode } from './service';

const TAG = 'One-Time Passcode';

export const OTP_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/otp/send',
    operationId: 'sendPasscode',
    summary: 'Send a passcode',
    description:
      "Texts a one-time passcode to phoneNumber through the account's SMS Configuration. While a verification for the same number is pending, the same code is sent again (a resend counts as a send) and the answer is 200 with that verification.",
    tag: TAG,
    body: OtpSendBodySchema,
    answer: OtpVerificationSchema,
    statuses: [201, 200],
    errors: [...V1_APP_GATE, ...V1_SMS_SEND, { status: 429, code: 'TOO_MANY_SENDS' }],
    async handler(c, { body }) {
      const input = body as OtpSendBody;
      const { verification, created } = await sendPasscode(c.var.deps, c.var.apiAccountId, input, v1Caller(c, input.agent));
      return { status: created ? 201 : 200, answer: verification };
    },
  },
  {
    method: 'post',
    path: '/otp/check',
    operationId: 'checkPasscode',
    summary: 'Check a code',
    description:
      'Answers the verification with its status: approved, pending (wrong code, attempts left), max_attempts_reached, expired or canceled.',
    tag: TAG,
    body: OtpCheckBodySchema,
    answer: OtpVerificationSchema,
    statuses: [200],
    errors: [V1_NOT_FOUND],
    async handler(c, { body }) {
      const input = body as OtpCheckBody;
      return {
        status: 200,
        answer: await checkPasscode(c.var.deps, c.var.apiAccountId, input.id, input.code, v1Caller(c, input.agent)),
      };
    },
  },
  v1Get(
    {
      path: '/otp/:id',
      operationId: 'getVerification',
      summary: 'Get a verification',
      description:
        'The verification with its status: pending, approved, canceled, max_attempts_reached, expired or failed (a pending one past its expiry is answered expired).',
      tag: TAG,
      params: OtpIdParamSchema,
      answer: OtpVerificationSchema,
    },
    getVerification,
  ),
  v1TaskAction(
    {
      path: '/otp/:id/cancel',
      operationId: 'cancelVerification',
      summary: 'Cancel a verification',
      description: 'Ends a pending verification: its code no longer checks. A finished one is answered as it is.',
      tag: TAG,
      params: OtpIdParamSchema,
      body: OtpCancelBodySchema,
      answer: OtpVerificationSchema,
      errors: [V1_NOT_FOUND],
    },
    cancelVerification,
  ),
];
