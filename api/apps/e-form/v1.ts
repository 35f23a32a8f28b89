import { FormIdParamSchema, FormRequestBodySchema, FormRequestIdParamSchema, FormRequestSchema, type FormRequestBody } from '../../contract/apps/e-form';
import { apiCaller } from '../platform/caller';
import { requestOrigin } from '../platform/console-routes';
import type { V1Operation } from '../platform/v1-spec';
import { getRequest, sendForm } from './service';

const TAG = 'eForm';

export const EFORM_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/forms/:id/requests',
    operationId: 'sendForm',
    summary: 'Send a form',
    description:
      "Texts the customer a one-time link to the form's latest published version through the account's SMS Configuration. `prefill` fills the form's hidden fields (customerRef fills itself); the submission carries them.",
    tag: TAG,
    params: FormIdParamSchema,
    body: FormRequestBodySchema,
    answer: FormRequestSchema,
    statuses: [201],
    errors: [
      { status: 404, code: 'NOT_FOUND' },
      { status: 402, code: 'FREE_TIER_EXHAUSTED' },
      { status: 403, code: 'APP_NOT_ACTIVE' },
      { status: 409, code: 'FORM_NOT_PUBLISHED' },
      { status: 409, code: 'FORM_CLOSED' },
      { status: 409, code: 'SMS_NOT_CONFIGURED' },
    ],
    async handler(c, { params, body }) {
      const input = body as FormRequestBody;
      const origin = requestOrigin(c as never);
      return { status: 201, answer: await sendForm(c.var.deps, c.var.apiAccountId, params.id!, input, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'get',
    path: '/form-requests/:id',
    operationId: 'getFormRequest',
    summary: 'Get a form request',
    description: 'The request with its status; once submitted, `answers` holds the answers by field id (files as name, size, type and fileId).',
    tag: TAG,
    params: FormRequestIdParamSchema,
    answer: FormRequestSchema,
    statuses: [200],
    errors: [{ status: 404, code: 'NOT_FOUND' }],
    async handler(c, { params }) {
      return { status: 200, answer: await getRequest(c.var.deps, c.var.apiAccountId, params.id!) };
    },
  },
];
