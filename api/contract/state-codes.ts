// The codes of a configuration state (api/contract/stripe-states.ts has their sentences). Apart
// from the sentences so the console's first load (src/api/client.ts, which must never call such a
// state "temporarily unavailable") carries the codes only.

/** Codes of a configuration state: not a fault and not temporary, so never "try again later". */
export const STATE_CODES = [
  'STRIPE_CONNECT_NOT_CONFIGURED',
  'STRIPE_NOT_CONNECTED',
  'STRIPE_ACCESS_REVOKED',
  'BILLING_NOT_CONFIGURED',
] as const;
export type StateCode = (typeof STATE_CODES)[number];

export function isStateCode(code: string): code is StateCode {
  return (STATE_CODES as readonly string[]).includes(code);
}
