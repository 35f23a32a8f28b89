import crypto from 'node:crypto';
import { SIGNATURE_HEADER } from '../contract/developers';

export { SIGNATURE_HEADER };

/**
 * The X-Signature of a webhook request: lowercase hex HMAC-SHA256 of the exact bytes of the
 * body, keyed with the account's webhook secret (the whole whsec_… string). The Developers page
 * documents this for customers; every webhook sender uses this function.
 */
export function webhookSignature(rawBody: string | Buffer, webhookSecret: string): string {
  return crypto.createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}
