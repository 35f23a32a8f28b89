import {
  IdvCancelBodySchema,
  IdvIdParamSchema,
  IdvSessionSchema,
  IdvStartBodySchema,
  type IdvStartBody,
} from '../../contract/apps/identity-verification';
import { V1_NOT_FOUND, V1_SMS_SEND, v1Get, v1Start, v1TaskAction } from '../platform/v1-operations';
import type { V1Operation } from '../platform/v1-spec';
import { cancelSession, getSession, idvReleasedFor, startSession } from './service';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';

/** An account IDV is not released for finds nothing here, as its users find nothing in the console. */
async function assertStaffAccount(deps: Deps, accountId: string): Promise<void> {
  if (!(await deps.db.tenant(accountId, (trx) => idvReleasedFor(trx, accountId, deps.config.providerEmailDomain))))
    throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
}

const TAG = 'Identity Verification';

export const IDV_V1: V1Operation[] = [
  v1Start<IdvStartBody>(
    {
      path: '/idv/sessions',
      operationId: 'startIdentityVerification',
      summary: 'Start an identity verification',
      description:
        "Texts the customer a link (through the account's SMS Configuration) to photograph their ID (front, and back where it has one) and take a selfie. A reviewer decides in the console; follow the session with GET or the idv.session.* webhooks. expectedName and expectedDateOfBirth (YYYY-MM-DD) are compared with the document's machine-readable zone.",
      tag: TAG,
      body: IdvStartBodySchema,
      answer: IdvSessionSchema,
      errors: [
        // the app is unreleased: an account without a provider's staff admin finds nothing here
        {
          status: 404,
          code: 'NOT_FOUND',
          description:
            "This account cannot use Identity Verification: it is open only to accounts of the provider's own staff while unreleased.",
        },
        ...V1_SMS_SEND,
      ],
    },
    async (deps, accountId, input, caller) => {
      await assertStaffAccount(deps, accountId);
      return startSession(deps, accountId, input, caller);
    },
  ),
  v1Get(
    {
      path: '/idv/sessions/:id',
      operationId: 'getIdentityVerification',
      summary: 'Get an identity verification',
      description: 'The session with its status and the result of each check (never the photos or the document data).',
      tag: TAG,
      params: IdvIdParamSchema,
      answer: IdvSessionSchema,
    },
    getSession,
  ),
  v1TaskAction(
    {
      path: '/idv/sessions/:id/cancel',
      operationId: 'cancelIdentityVerification',
      summary: 'Cancel an identity verification',
      description: 'Ends a session not yet decided: its link stops working at once. A finished one is answered as it is.',
      tag: TAG,
      params: IdvIdParamSchema,
      body: IdvCancelBodySchema,
      answer: IdvSessionSchema,
      errors: [V1_NOT_FOUND],
    },
    cancelSession,
  ),
];
