import crypto from 'node:crypto';
import { SIGNATURE_HEADER } from '../contract/developers';

export { SIGNATURE_HEADER };

/**
 * The X-Signature of a webhook request: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw
 * body>">` with one v1 per signing secret (two for 24 h after a rotation). It is the scheme
 * Stripe's libraries verify; receivers reject a `t` more than 5 minutes away. Every webhook
 * sender uses this function; the Developers page and docs/api.md show how to check it.
 */
export function webhookSignature(rawBody: string | Buffer, secrets: readonly string[], unixSeconds: number): string {
  const v1 = secrets.map((s) => `v1=${crypto.createHmac('sha256', s).update(`${unixSeconds}.`).update(rawBody).digest('hex')}`);
  return [`t=${unixSeconds}`, ...v1].join(',');
}
