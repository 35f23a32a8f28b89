import {
  FormIdParamSchema,
  FormRequestBodySchema,
  FormRequestIdParamSchema,
  FormRequestSchema,
  type FormRequestBody,
} from '../../contract/apps/e-form';
import { V1_APP_GATE, V1_SMS_SEND, V1_NOT_FOUND, v1Get, v1Start } from '../platform/v1-operations';
import type { V1Operation } from '../platform/v1-spec';
import { getRequest, sendForm } from './service';

const TAG = 'eForm';

export const EFORM_V1: V1Operation[] = [
  v1Start<FormRequestBody>(
    {
      path: '/forms/:id/requests',
      operationId: 'sendForm',
      summary: 'Send a form',
      description:
        "Texts the customer a one-time link to the form's latest published version through the account's SMS Configuration. `prefill` fills the form's hidden fields (customerRef fills itself); the submission carries them.",
      tag: TAG,
      params: FormIdParamSchema,
      body: FormRequestBodySchema,
      answer: FormRequestSchema,
      errors: [
        V1_NOT_FOUND,
        ...V1_APP_GATE,
        { status: 409, code: 'FORM_NOT_PUBLISHED' },
        { status: 409, code: 'FORM_CLOSED' },
        ...V1_SMS_SEND,
      ],
    },
    (deps, accountId, input, caller, params) => sendForm(deps, accountId, params.id!, input, caller),
  ),
  v1Get(
    {
      path: '/form-requests/:id',
      operationId: 'getFormRequest',
      summary: 'Get a form request',
      description:
        'The request with its status; once submitted, `answers` holds the answers by field id (files as name, size, type and fileId).',
      tag: TAG,
      params: FormRequestIdParamSchema,
      answer: FormRequestSchema,
    },
    getRequest,
  ),
];
