import type { Deps } from '../deps';
import type { JourneyDelivery } from '../apps/platform/delivery';
import type { Caller } from '../apps/platform/caller';
import { appModule } from '../apps/platform/registry';
import type { JourneyStep, JourneyStepApp } from '../contract/journeys';
import type { Locale } from '../contract/locales';
import { endUndeliveredSend, sendPasscode } from '../apps/one-time-passcode/service';
import { endUndeliveredRequest as endUndeliveredForm, sendForm } from '../apps/e-form/service';
import { endUndeliveredSession, renewStepToken, startSession } from '../apps/identity-verification/service';
import { endUndeliveredTask, enrollPasskey, verifyWithPasskey } from '../apps/passkeys/service';
import { endUndeliveredRequest as endUndeliveredSignature, sendForSignature } from '../apps/document-signature/service';
import { endUndeliveredPayment, requestPayment } from '../apps/payments/service';

// Each kind of step is its app's own send, called exactly as the app's console, agent action and
// /api/v1 call it, with a JourneyDelivery so the app texts nothing itself. The app's rules, task,
// credit, timeline, audit entry and webhooks are its own: nothing of them is copied here.

export type StepOutcome = 'waiting' | 'done' | 'failed' | 'expired';

/** Who the journey is for: what every step's send takes from the journey. */
export type JourneyParty = {
  phoneNumber: string;
  customerRef: string | null;
  customerName: string | null;
  agent: string | null;
  locale: Locale | null;
};

type StepKind = {
  send(
    deps: Deps,
    accountId: string,
    step: JourneyStep,
    party: JourneyParty,
    caller: Caller,
    delivery: JourneyDelivery,
  ): Promise<string>;
  /**
   * The journey's SMS carrying this step failed: the task ends as its app ends one whose own SMS
   * failed (its credit given back, its status, timeline, audit entry and webhook the app's own).
   */
  undelivered(deps: Deps, accountId: string, taskId: string, failure: string, caller: Caller): Promise<void>;
  /** how the app's own status of the task reads for the journey */
  outcome: Record<string, StepOutcome>;
  /**
   * An app that revokes a waiting task's link and issues another (IDV's resubmission): the new
   * token for the journey's page, or null when the task no longer takes one.
   */
  renewToken?(deps: Deps, accountId: string, taskId: string): Promise<string | null>;
};

const common = (p: JourneyParty) => ({
  phoneNumber: p.phoneNumber,
  customerRef: p.customerRef,
  agent: p.agent,
  locale: p.locale,
});

export const STEP_KINDS: Record<JourneyStepApp, StepKind> = {
  'one-time-passcode': {
    async send(deps, accountId, _step, party, caller, delivery) {
      return (await sendPasscode(deps, accountId, common(party), caller, delivery)).verification.id;
    },
    undelivered: endUndeliveredSend,
    outcome: {
      pending: 'waiting',
      approved: 'done',
      max_attempts_reached: 'failed',
      canceled: 'failed',
      failed: 'failed',
      expired: 'expired',
    },
  },
  passkeys: {
    async send(deps, accountId, step, party, caller, delivery) {
      const body = { ...common(party), customerRef: party.customerRef ?? '' };
      if (step.app === 'passkeys' && step.action === 'enroll')
        return (await enrollPasskey(deps, accountId, { ...body, displayName: party.customerName }, caller, delivery)).id;
      return (await verifyWithPasskey(deps, accountId, body, caller, delivery)).id;
    },
    undelivered: endUndeliveredTask,
    // a ceremony that fails can be tried again on the page until the link's time is up
    outcome: {
      link_sent: 'waiting',
      started: 'waiting',
      failed: 'waiting',
      succeeded: 'done',
      not_delivered: 'failed',
      cancelled: 'failed',
      expired: 'expired',
    },
  },
  'identity-verification': {
    async send(deps, accountId, _step, party, caller, delivery) {
      const body = { ...common(party), customerRef: party.customerRef ?? '', expectedName: party.customerName };
      return (await startSession(deps, accountId, body, caller, delivery)).id;
    },
    undelivered: endUndeliveredSession,
    renewToken: renewStepToken,
    // a resubmission asked by the reviewer is one more try on the same page
    outcome: {
      created: 'waiting',
      link_sent: 'waiting',
      in_progress: 'waiting',
      submitted: 'waiting',
      needs_review: 'waiting',
      resubmission_requested: 'waiting',
      approved: 'done',
      declined: 'failed',
      cancelled: 'failed',
      expired: 'expired',
    },
  },
  'e-form': {
    async send(deps, accountId, step, party, caller, delivery) {
      if (step.app !== 'e-form') throw new Error('not a form step');
      return (await sendForm(deps, accountId, step.formId, common(party), caller, delivery)).id;
    },
    undelivered: endUndeliveredForm,
    outcome: { sent: 'waiting', opened: 'waiting', submitted: 'done', failed: 'failed', expired: 'expired' },
  },
  'document-signature': {
    async send(deps, accountId, step, party, caller, delivery) {
      if (step.app !== 'document-signature') throw new Error('not a signature step');
      return (
        await sendForSignature(
          deps,
          accountId,
          { ...common(party), documentId: step.documentId, signerName: party.customerName ?? '' },
          caller,
          delivery,
        )
      ).id;
    },
    undelivered: endUndeliveredSignature,
    outcome: {
      sent: 'waiting',
      opened: 'waiting',
      signed: 'done',
      completed: 'done',
      declined: 'failed',
      cancelled: 'failed',
      expired: 'expired',
    },
  },
  payments: {
    async send(deps, accountId, step, party, caller, delivery) {
      if (step.app !== 'payments') throw new Error('not a payment step');
      const line = step.productId
        ? { productId: step.productId }
        : { amount: step.amount!, currency: step.currency, description: step.description! };
      return (await requestPayment(deps, accountId, { ...common(party), ...line }, caller, delivery)).id;
    },
    undelivered: endUndeliveredPayment,
    // a declined card is tried again on Stripe's page: only an expired link ends the step
    outcome: {
      requested: 'waiting',
      opened: 'waiting',
      failed: 'waiting',
      succeeded: 'done',
      partially_refunded: 'done',
      refunded: 'done',
      expired: 'expired',
    },
  },
};

/** The step's task, as its app reads it now (the app applies its own expiry on the way). */
export async function stepTaskStatus(
  deps: Deps,
  accountId: string,
  app: JourneyStepApp,
  taskId: string,
): Promise<{ status: string; outcome: StepOutcome }> {
  const result = await appModule(app)!.taskStatus(deps, accountId, taskId);
  return { status: result.status, outcome: STEP_KINDS[app].outcome[result.status] ?? 'waiting' };
}
