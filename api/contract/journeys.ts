import * as v from 'valibot';
import { OptionalLocaleSchema } from './locales';
import { PhoneNumberSchema } from './sms';
import { AmountSchema, CurrencySchema } from './apps/payments';
import { TaskEventSchema } from './platform';

// Journeys: several of the apps' sends chained behind one SMS and one link (docs/apps/journeys.md).
// A step names its app and what that app's send needs; the app's own send checks the rest when
// the step is sent, exactly as if an agent had sent it alone.

export const JOURNEY_APP = 'journeys' as const;
export const JOURNEY_MAX_STEPS = 6;
export const JOURNEY_STEP_APPS = [
  'one-time-passcode',
  'passkeys',
  'identity-verification',
  'e-form',
  'document-signature',
  'payments',
] as const;
export type JourneyStepApp = (typeof JOURNEY_STEP_APPS)[number];

export const JOURNEY_STATUSES = ['active', 'paused', 'completed', 'failed', 'expired', 'canceled'] as const;
export type JourneyStatus = (typeof JOURNEY_STATUSES)[number];
export const JOURNEY_STEP_STATUSES = ['waiting', 'sending', 'active', 'done', 'skipped', 'failed', 'expired'] as const;
export type JourneyStepStatus = (typeof JOURNEY_STEP_STATUSES)[number];
export const JOURNEY_EVENT_TYPES = ['journey.completed', 'journey.failed', 'journey.expired'] as const;

const uuid = (name: string, what: string) => v.pipe(v.string(`${name} is required`), v.uuid(`${name} is not ${what}`));
const optional = v.optional(v.boolean('optional must be true or false'), false);
const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

/** Verify the caller with a passcode: its code travels in the journey's SMS and is typed on the page. */
const CodeStepSchema = v.object({
  app: v.literal('one-time-passcode'),
  optional: v.optional(v.literal(false, 'A verification step cannot be optional'), false),
});
/**
 * Verify the caller with the passkey they enrolled, or (`action: 'enroll'`) have them create one:
 * the journey's customerRef names them either way.
 */
const PasskeyStepSchema = v.object({
  app: v.literal('passkeys'),
  action: v.optional(v.picklist(['verify', 'enroll'], 'action is verify or enroll'), 'verify'),
  optional: v.optional(v.literal(false, 'A passkey step cannot be optional'), false),
});
/**
 * Identity documents and a selfie on Identity Verification's own page (only where IDV is
 * released for the account); the journey's customerName is the name the document must carry.
 */
const IdvStepSchema = v.object({
  app: v.literal('identity-verification'),
  optional: v.optional(v.literal(false, 'A verification step cannot be optional'), false),
});
const FormStepSchema = v.object({ app: v.literal('e-form'), formId: uuid('formId', 'a form id'), optional });
const SignatureStepSchema = v.object({
  app: v.literal('document-signature'),
  documentId: uuid('documentId', 'a document id'),
  optional,
});
const PaymentStepSchema = v.object({
  app: v.literal('payments'),
  productId: v.optional(
    v.pipe(v.string('productId must be text'), v.trim(), v.regex(/^prod_[A-Za-z0-9]{1,100}$/, 'productId is not a product id')),
  ),
  amount: v.optional(AmountSchema),
  currency: v.optional(CurrencySchema),
  description: v.optional(
    v.pipe(
      v.string('description must be text'),
      v.trim(),
      v.minLength(1, 'description is required with an amount'),
      v.maxLength(250, 'description has at most 250 characters'),
    ),
  ),
  optional,
});

export const JourneyStepSchema = v.pipe(
  v.variant(
    'app',
    [CodeStepSchema, PasskeyStepSchema, IdvStepSchema, FormStepSchema, SignatureStepSchema, PaymentStepSchema],
    `app is one of ${JOURNEY_STEP_APPS.join(', ')}`,
  ),
  v.check(
    (s) => s.app !== 'payments' || Boolean(s.productId) !== Boolean(s.amount !== undefined),
    'A payment step takes a productId or an amount, not both',
  ),
  v.check(
    (s) => s.app !== 'payments' || s.amount === undefined || Boolean(s.description),
    'A payment step with an amount needs its description',
  ),
);
export type JourneyStep = v.InferOutput<typeof JourneyStepSchema>;

export const JourneyStepsSchema = v.pipe(
  v.array(JourneyStepSchema, 'steps is a list of steps'),
  v.minLength(1, 'A journey has at least one step'),
  v.maxLength(JOURNEY_MAX_STEPS, `A journey has at most ${JOURNEY_MAX_STEPS} steps`),
  // its code travels in the journey's one SMS, so the passcode can only open the journey
  v.check(
    (steps) => steps.every((s, i) => s.app !== 'one-time-passcode' || i === 0),
    'A passcode step can only be the first step',
  ),
  v.check((steps) => steps.some((s) => !s.optional), 'At least one step must not be optional'),
);

export const JourneyOnFailureSchema = v.picklist(['end', 'pause'], 'onFailure is end or pause');

export const JourneyTemplateBodySchema = v.object({
  name: v.pipe(
    v.string('name is required'),
    v.trim(),
    v.minLength(1, 'name is required'),
    v.maxLength(120, 'name has at most 120 characters'),
  ),
  steps: JourneyStepsSchema,
  /** a failed or expired step ends the journey, or pauses it until an agent resends that step */
  onFailure: v.optional(JourneyOnFailureSchema, 'end'),
});
export type JourneyTemplateBody = v.InferOutput<typeof JourneyTemplateBodySchema>;

export const JourneyTemplateSchema = v.object({
  id: v.string(),
  name: v.string(),
  steps: v.array(JourneyStepSchema),
  onFailure: JourneyOnFailureSchema,
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type JourneyTemplate = v.InferOutput<typeof JourneyTemplateSchema>;

/** POST /api/v1/journeys, the console's send and the agent action: a template, or steps inline. */
export const JourneySendBodySchema = v.pipe(
  v.object({
    templateId: v.optional(uuid('templateId', 'a journey template id')),
    steps: v.optional(JourneyStepsSchema),
    onFailure: v.optional(JourneyOnFailureSchema),
    phoneNumber: PhoneNumberSchema,
    customerRef: optionalText('customerRef', 200),
    /** the signer's name, which a signature step needs (a passkey step needs customerRef) */
    customerName: optionalText('customerName', 200),
    agent: optionalText('agent', 200),
    /** the caller's language (SMS and every step's page); the account's default when absent */
    locale: OptionalLocaleSchema,
  }),
  v.forward(
    v.check((b) => (b.templateId === undefined) !== (b.steps === undefined), 'Send a templateId or steps, not both'),
    ['templateId'],
  ),
  v.metadata({
    oneOf: [
      { required: ['templateId'], properties: { templateId: {}, steps: false } },
      { required: ['steps'], properties: { steps: {}, templateId: false } },
    ],
  }),
);
export type JourneySendBody = v.InferOutput<typeof JourneySendBodySchema>;

export const JourneyIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a journey id')) });
export const JourneyAgentBodySchema = v.object({ agent: optionalText('agent', 200) });

export const JourneyStepStateSchema = v.object({
  position: v.number(),
  app: v.picklist(JOURNEY_STEP_APPS),
  optional: v.boolean(),
  status: v.picklist(JOURNEY_STEP_STATUSES),
  /** the step's task in its app (its lists, dashboards, webhooks); null until the step is sent */
  taskId: v.nullable(v.string()),
  /** the task's own status in its app */
  taskStatus: v.nullable(v.string()),
  attempts: v.number(),
});
export type JourneyStepState = v.InferOutput<typeof JourneyStepStateSchema>;

export const JourneySchema = v.object({
  id: v.string(),
  templateId: v.nullable(v.string()),
  name: v.string(),
  status: v.picklist(JOURNEY_STATUSES),
  onFailure: JourneyOnFailureSchema,
  /** masked: +1 •••• •• 4567 */
  phoneNumber: v.string(),
  customerRef: v.nullable(v.string()),
  agent: v.nullable(v.string()),
  locale: v.nullable(v.string()),
  currentStep: v.number(),
  steps: v.array(JourneyStepStateSchema),
  failureReason: v.nullable(v.string()),
  createdAt: v.string(),
  expiresAt: v.string(),
  endedAt: v.nullable(v.string()),
});
export type Journey = v.InferOutput<typeof JourneySchema>;

export const JourneyDetailSchema = v.object({ ...JourneySchema.entries, timeline: v.array(TaskEventSchema) });
export type JourneyDetail = v.InferOutput<typeof JourneyDetailSchema>;

export const JourneyListQuerySchema = v.object({
  status: v.optional(v.picklist(JOURNEY_STATUSES, 'status is not a journey status')),
});
