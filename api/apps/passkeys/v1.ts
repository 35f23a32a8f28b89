import {
  PasskeyCancelBodySchema,
  PasskeyEnrollBodySchema,
  type PasskeyEnrollBody,
  PasskeyIdParamSchema,
  PasskeyTaskSchema,
  PasskeyVerifyBodySchema,
  type PasskeyVerifyBody,
} from '../../contract/apps/passkeys';
import { ApiError } from '../../http/errors';
import { V1_APP_GATE, V1_SMS_SEND, V1_NOT_FOUND, v1Get, v1Start, v1TaskAction } from '../platform/v1-operations';
import type { V1Operation } from '../platform/v1-spec';
import { cancelPasskeyTask, enrollPasskey, getPasskeyTask, verifyWithPasskey } from './service';

const TAG = 'Passkeys';
const sendErrors = [...V1_APP_GATE, ...V1_SMS_SEND];

export const PASSKEYS_V1: V1Operation[] = [
  v1Start<PasskeyEnrollBody>(
    {
      path: '/passkeys/enrollments',
      operationId: 'enrollPasskey',
      summary: 'Enroll a passkey',
      description:
        'Texts the customer a link (the Enrollment message of SMS content) that opens a page where they create a passkey with the name displayName (customerRef when absent). Answers the task; GET it to follow it, or subscribe to passkey.enrolled and passkey.failed.',
      tag: TAG,
      body: PasskeyEnrollBodySchema,
      answer: PasskeyTaskSchema,
      errors: sendErrors,
    },
    (deps, accountId, body, caller) => enrollPasskey(deps, accountId, body, caller),
  ),
  v1Start<PasskeyVerifyBody>(
    {
      path: '/passkeys/verifications',
      operationId: 'verifyWithPasskey',
      summary: 'Verify with a passkey',
      description:
        "Texts the customer a link that opens a page where they confirm it is them with one of their passkeys (only this customer's passkeys are offered). A customer with no passkey answers 409 NO_PASSKEY: enroll one first.",
      tag: TAG,
      body: PasskeyVerifyBodySchema,
      answer: PasskeyTaskSchema,
      errors: [...sendErrors, { status: 409, code: 'NO_PASSKEY' }],
    },
    (deps, accountId, input, caller) => verifyWithPasskey(deps, accountId, input, caller),
  ),
  getTask('enrollment'),
  getTask('verification'),
  cancelTask('enrollment'),
  cancelTask('verification'),
];

const otherKind = () => new ApiError(404, 'NOT_FOUND', 'There is no enrollment or verification with this id.');

/** GET /passkeys/enrollments/{id} and /passkeys/verifications/{id}: a task of the other kind is not found. */
function getTask(kind: 'enrollment' | 'verification'): V1Operation {
  const noun = kind === 'enrollment' ? 'Enrollment' : 'Verification';
  return v1Get(
    {
      path: `/passkeys/${kind}s/:id`,
      operationId: `getPasskey${noun}`,
      summary: `Get a${kind === 'enrollment' ? 'n' : ''} ${noun.toLowerCase()}`,
      description: `The ${noun.toLowerCase()} with its status: link_sent, started, succeeded, failed, expired, not_delivered or cancelled. An id of ${kind === 'enrollment' ? 'a verification' : 'an enrollment'} is not found here.`,
      tag: TAG,
      params: PasskeyIdParamSchema,
      answer: PasskeyTaskSchema,
    },
    async (deps, accountId, id) => {
      const task = await getPasskeyTask(deps, accountId, id);
      if (task.kind !== kind) throw otherKind();
      return task;
    },
  );
}

/** POST /passkeys/enrollments/{id}/cancel and /passkeys/verifications/{id}/cancel, as the agent action does. */
function cancelTask(kind: 'enrollment' | 'verification'): V1Operation {
  const noun = kind === 'enrollment' ? 'Enrollment' : 'Verification';
  return v1TaskAction(
    {
      path: `/passkeys/${kind}s/:id/cancel`,
      operationId: `cancelPasskey${noun}`,
      summary: `Cancel a${kind === 'enrollment' ? 'n' : ''} ${noun.toLowerCase()}`,
      description: `Ends a${kind === 'enrollment' ? 'n' : ''} ${noun.toLowerCase()} still waiting for the customer: its link stops working at once. A finished one is answered as it is.`,
      tag: TAG,
      params: PasskeyIdParamSchema,
      body: PasskeyCancelBodySchema,
      answer: PasskeyTaskSchema,
      errors: [V1_NOT_FOUND],
    },
    async (deps, accountId, id, caller) => {
      if ((await getPasskeyTask(deps, accountId, id)).kind !== kind) throw otherKind();
      return cancelPasskeyTask(deps, accountId, id, caller);
    },
  );
}
