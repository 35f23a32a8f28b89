import {
  PasskeyEnrollBodySchema,
  PasskeyIdParamSchema,
  PasskeyTaskSchema,
  PasskeyVerifyBodySchema,
  type PasskeyEnrollBody,
  type PasskeyVerifyBody,
} from '../../contract/apps/passkeys';
import { ApiError } from '../../http/errors';
import { apiCaller } from '../platform/caller';
import { requestOrigin } from '../platform/console-routes';
import type { V1Operation } from '../platform/v1-spec';
import { enrollPasskey, getPasskeyTask, verifyWithPasskey } from './service';

const TAG = 'Passkeys';
const notFound = { status: 404, code: 'NOT_FOUND' };
const sendErrors = [
  { status: 402, code: 'FREE_TIER_EXHAUSTED' },
  { status: 403, code: 'APP_NOT_ACTIVE' },
  { status: 409, code: 'SMS_NOT_CONFIGURED' },
];

export const PASSKEYS_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/passkeys/enrollments',
    operationId: 'enrollPasskey',
    summary: 'Enroll a passkey',
    description:
      "Texts the customer a link (the Enrollment message of SMS content) that opens a page where they create a passkey with the name displayName (customerRef when absent). Answers the task; GET it to follow it, or subscribe to passkey.enrolled and passkey.failed.",
    tag: TAG,
    body: PasskeyEnrollBodySchema,
    answer: PasskeyTaskSchema,
    statuses: [201],
    errors: sendErrors,
    async handler(c, { body }) {
      const input = body as PasskeyEnrollBody;
      const origin = requestOrigin(c as never);
      return { status: 201, answer: await enrollPasskey(c.var.deps, c.var.apiAccountId, input, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'post',
    path: '/passkeys/verifications',
    operationId: 'verifyWithPasskey',
    summary: 'Verify with a passkey',
    description:
      "Texts the customer a link that opens a page where they confirm it is them with one of their passkeys (only this customer's passkeys are offered). A customer with no passkey answers 409 NO_PASSKEY: enroll one first.",
    tag: TAG,
    body: PasskeyVerifyBodySchema,
    answer: PasskeyTaskSchema,
    statuses: [201],
    errors: [...sendErrors, { status: 409, code: 'NO_PASSKEY' }],
    async handler(c, { body }) {
      const input = body as PasskeyVerifyBody;
      const origin = requestOrigin(c as never);
      return { status: 201, answer: await verifyWithPasskey(c.var.deps, c.var.apiAccountId, input, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  getTask('enrollment'),
  getTask('verification'),
];

/** GET /passkeys/enrollments/{id} and /passkeys/verifications/{id}: a task of the other kind is not found. */
function getTask(kind: 'enrollment' | 'verification'): V1Operation {
  const noun = kind === 'enrollment' ? 'Enrollment' : 'Verification';
  return {
    method: 'get',
    path: `/passkeys/${kind}s/:id`,
    operationId: `getPasskey${noun}`,
    summary: `Get a${kind === 'enrollment' ? 'n' : ''} ${noun.toLowerCase()}`,
    tag: TAG,
    params: PasskeyIdParamSchema,
    answer: PasskeyTaskSchema,
    statuses: [200],
    errors: [notFound],
    async handler(c, { params }) {
      const task = await getPasskeyTask(c.var.deps, c.var.apiAccountId, params.id!);
      if (task.kind !== kind) throw new ApiError(404, 'NOT_FOUND', 'There is no enrollment or verification with this id.');
      return { status: 200, answer: task };
    },
  };
}
