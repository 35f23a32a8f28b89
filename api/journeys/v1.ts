import {
  JourneyAgentBodySchema,
  JourneyIdParamSchema,
  JourneySchema,
  JourneySendBodySchema,
  type JourneySendBody,
} from '../contract/journeys';
import { V1_APP_GATE, V1_NOT_FOUND, V1_SMS_SEND, v1Get, v1Start, v1TaskAction } from '../apps/platform/v1-operations';
import { registerSharedV1 } from '../apps/platform/registry';
import { getJourney, resendJourney, sendJourney } from './service';

const TAG = 'Journeys';

registerSharedV1({
  tag: TAG,
  description:
    'Several of the apps in a row behind one SMS and one link: verify the caller, then a form, a signature, a payment.',
  ops: [
    v1Start<JourneySendBody>(
      {
        path: '/journeys',
        operationId: 'sendJourney',
        summary: 'Send a journey',
        description:
          "Texts the caller one link that walks them through the steps of a journey template (templateId) or of the steps given inline, in order. Each step is sent through its app when the caller reaches it, as an ordinary task of that app, charged as that app charges a send. A passcode step can only come first, and nothing after it exists until it passes. The first step's app answers its own refusals (a form that is not published, the free tier used up).",
        tag: TAG,
        body: JourneySendBodySchema,
        answer: JourneySchema,
        errors: [
          ...V1_APP_GATE,
          ...V1_SMS_SEND,
          V1_NOT_FOUND,
          { status: 409, code: 'FORM_NOT_PUBLISHED' },
          { status: 409, code: 'VERSION_NOT_PUBLISHED' },
          { status: 409, code: 'TOO_MANY_SENDS' },
          { status: 409, code: 'NO_PASSKEY' },
          { status: 403, code: 'APP_NOT_RELEASED' },
        ],
      },
      (deps, accountId, input, caller) => sendJourney(deps, accountId, input, caller),
    ),
    v1Get(
      {
        path: '/journeys/:id',
        operationId: 'getJourney',
        summary: 'Get a journey',
        description:
          "The journey with its status (active, paused, completed, failed, expired) and every step: its app, its task id in that app (null until the caller reaches it) and that task's status.",
        tag: TAG,
        params: JourneyIdParamSchema,
        answer: JourneySchema,
      },
      getJourney,
    ),
    v1TaskAction(
      {
        path: '/journeys/:id/resend',
        operationId: 'resendJourney',
        summary: 'Resend a journey from the step that failed',
        description:
          'For a failed, expired or paused journey: sends the unfinished step again through its app (a new task) and texts the caller a new link; the old link stops working.',
        tag: TAG,
        params: JourneyIdParamSchema,
        body: JourneyAgentBodySchema,
        answer: JourneySchema,
        errors: [V1_NOT_FOUND, { status: 409, code: 'JOURNEY_IN_PROGRESS' }, { status: 409, code: 'JOURNEY_ENDED' }],
      },
      resendJourney,
    ),
  ],
});
