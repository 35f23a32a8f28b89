/**
 * How a send reaches the customer when it is one step of a journey (api/journeys): the journey's
 * one SMS carries one link for every step, so the app texts nothing itself. Everything else of
 * the send (its rules, its task, its credit, its timeline, audit entry and webhook) is the app's
 * own, unchanged. The send fills in what the journey's SMS and page need.
 */
export type JourneyDelivery = {
  /** where a page that leaves for another site (Stripe Checkout) sends the caller back: the journey's link */
  returnUrl: string;
  /** filled by the send: the step's own link token, whose page the journey's page shows */
  token?: string;
  /** filled by a send whose text carries a secret (a passcode): the journey's SMS carries that text */
  smsText?: string;
};
