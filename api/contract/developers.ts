import * as v from 'valibot';

/** GET /accounts/developer: the account's credentials for the widget, the API and webhooks. */
export const DeveloperKeysSchema = v.object({
  widgetKey: v.string(),
  secretKey: v.string(),
  webhookSecret: v.string(),
  /** false in ghost mode: provider staff get the secrets masked, never their values */
  revealed: v.boolean(),
});
export type DeveloperKeys = v.InferOutput<typeof DeveloperKeysSchema>;

/** The secrets that can be rotated; the widget key is public and stays. */
export const ROTATABLE_KEYS = ['secretKey', 'webhookSecret'] as const;
export type RotatableKey = (typeof ROTATABLE_KEYS)[number];

/**
 * POST /accounts/developer/rotate: replaces one secret with a fresh one at once (the old value
 * stops working immediately) and answers the keys as GET does.
 */
export const RotateKeySchema = v.object({ key: v.picklist(ROTATABLE_KEYS, 'key must be secretKey or webhookSecret') });
export type RotateKey = v.InferOutput<typeof RotateKeySchema>;

/** Header on every webhook request: hex HMAC-SHA256 of the raw body under the webhook secret. */
export const SIGNATURE_HEADER = 'X-Signature';

/** 'sk_abc…' -> 'sk_***…': everything after the first underscore is masked. */
export function maskSecretKey(key: string): string {
  const at = key.indexOf('_');
  if (at < 0) return '*'.repeat(key.length);
  return key.slice(0, at + 1) + '*'.repeat(key.length - at - 1);
}

/** The webhook secret is shown as 32 stars, whatever its length. */
export const maskWebhookSecret = () => '*'.repeat(32);

/** The keys as provider staff in ghost mode see them: the widget key, and the secrets masked. */
export function maskedKeys(keys: Pick<DeveloperKeys, 'widgetKey' | 'secretKey'>): DeveloperKeys {
  return {
    widgetKey: keys.widgetKey,
    secretKey: maskSecretKey(keys.secretKey),
    webhookSecret: maskWebhookSecret(),
    revealed: false,
  };
}
