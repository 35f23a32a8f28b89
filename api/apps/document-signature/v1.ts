import {
  SigAgentBodySchema,
  SigIdParamSchema,
  SigRequestSchema,
  SigSendBodySchema,
  type SigSendBody,
} from '../../contract/apps/document-signature';
import { V1_APP_GATE, V1_SMS_SEND, V1_NOT_FOUND, v1Get, v1Start, v1TaskAction } from '../platform/v1-operations';
import type { V1Operation } from '../platform/v1-spec';
import { cancelRequest, getRequest, resendRequest, sendForSignature } from './service';

const TAG = 'Document Signature';
const notOpen = { status: 409, code: 'NOT_OPEN' };

export const SIG_V1: V1Operation[] = [
  v1Start<SigSendBody>(
    {
      path: '/signatures',
      operationId: 'sendForSignature',
      summary: 'Send a document for signature',
      description:
        'Texts signerName a link to read and sign a published version of the document (the newest, unless version names one). The request records that version: later edits never change what was sent. It expires after expiresInDays (the default from Configuration > General).',
      tag: TAG,
      body: SigSendBodySchema,
      answer: SigRequestSchema,
      errors: [
        ...V1_APP_GATE,
        V1_NOT_FOUND,
        { status: 409, code: 'VERSION_NOT_PUBLISHED' },
        ...V1_SMS_SEND,
        { status: 502, code: 'SMS_NOT_DELIVERED' },
      ],
    },
    (deps, accountId, input, caller) => sendForSignature(deps, accountId, input, caller),
  ),
  v1Get(
    {
      path: '/signatures/:id',
      operationId: 'getSignatureRequest',
      summary: 'Get a signature request',
      description: 'Statuses: sent, opened, signed (sealing), completed (sealed), declined, expired, cancelled.',
      tag: TAG,
      params: SigIdParamSchema,
      answer: SigRequestSchema,
    },
    getRequest,
  ),
  v1TaskAction(
    {
      path: '/signatures/:id/cancel',
      operationId: 'cancelSignatureRequest',
      summary: 'Cancel a signature request',
      description:
        'Ends a request still waiting for its signer (sent or opened): its link stops working at once. Any other status answers 409 NOT_OPEN.',
      tag: TAG,
      params: SigIdParamSchema,
      body: SigAgentBodySchema,
      answer: SigRequestSchema,
      errors: [V1_NOT_FOUND, notOpen],
    },
    cancelRequest,
  ),
  v1TaskAction(
    {
      path: '/signatures/:id/resend',
      operationId: 'resendSignatureRequest',
      summary: 'Send the link again',
      description: 'Texts a new link; the previous link stops working. The expiry does not change.',
      tag: TAG,
      params: SigIdParamSchema,
      body: SigAgentBodySchema,
      answer: SigRequestSchema,
      errors: [V1_NOT_FOUND, notOpen, { status: 409, code: 'SMS_NOT_CONFIGURED' }, { status: 502, code: 'SMS_NOT_DELIVERED' }],
    },
    resendRequest,
  ),
];
