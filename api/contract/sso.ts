import * as v from 'valibot';
import { presentText, requiredText, text, urlSchema } from './common';
import { keptSecret, requiredSecret } from './secret-text';

// Single sign-on settings: one provider per account (azure, okta or oidc). The client secret is
// write-only: saved encrypted, never part of an answer.

export const SSO_PROVIDERS = ['azure', 'okta', 'oidc'] as const;
export const SsoProviderSchema = v.picklist(SSO_PROVIDERS, 'Choose azure, okta or oidc');
export type SsoProvider = v.InferOutput<typeof SsoProviderSchema>;

export const SSO_PROVIDER_TITLES: Record<SsoProvider, string> = { azure: 'Azure AD', okta: 'Okta', oidc: 'OpenID Connect' };

export const SSO_DISABLED_REASON = 'Disable the current provider to enable this one';

const required = (message: string, max = 500) => requiredText(message, max, `At most ${max} characters`);

export const DISCOVERY_URL_HTTPS = 'Discovery URL must start with https://';
/**
 * http is let through here only so that the route can allow it where it is safe (development, the
 * development identity provider, hosts in OUTBOUND_ALLOW_HOSTS); everywhere else it refuses
 * DISCOVERY_URL_HTTPS.
 */
const discoveryUrl = urlSchema(
  { required: 'Discovery URL is required', invalid: 'Discovery URL is required', https: DISCOVERY_URL_HTTPS },
  { allowHttp: true },
);

const domain = v.pipe(
  presentText('Domain is required'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('Domain is required'),
  v.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Domain must be a domain name, e.g. example.com'),
);

/** Empty keeps the stored secret when the same provider is already connected. */
const clientSecret = keptSecret('Client Secret is required', 2000);
/** the client id travels with the secret (HTTP Basic at the token endpoint) */
const clientIdSchema = requiredSecret('Client ID is required', 500, 'At most 500 characters');
const groupId = v.optional(v.pipe(text(), v.trim(), v.maxLength(200, 'At most 200 characters')), '');

export const AzureSsoSchema = v.object({
  discoveryUrl,
  domain,
  clientId: clientIdSchema,
  clientSecret,
  adminGroupId: groupId,
  agentGroupId: groupId,
});
export const OKTA_TENANT_INVALID = 'Tenant must be your Okta domain, e.g. acme.okta.com';
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(:\d{1,5})?$/;

/**
 * The Okta tenant as typed: 'acme' (read as acme.okta.com), a domain (acme.okta.com, or a custom
 * domain such as login.acme.com) or its https URL. Kept as a lower-case host, or as an http(s)
 * URL when one was given with a path or over http (the route admits http only where it is safe).
 */
const tenant = v.pipe(
  required('Tenant is required', 253),
  v.transform((typed) => {
    const value = typed.toLowerCase().replace(/\/+$/, '');
    if (/^https:\/\/[^/]+$/.test(value)) return value.slice('https://'.length);
    if (/^[a-z0-9-]+$/.test(value)) return `${value}.okta.com`;
    return value;
  }),
  v.check((value) => HOST.test(value) || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(value), OKTA_TENANT_INVALID),
);

/**
 * Okta's discovery document, derived from the tenant (SPEC §3 lists no discovery URL for Okta):
 * the org authorization server's issuer is the tenant's https origin.
 */
export function oktaDiscoveryUrl(tenant: string): string {
  const base = /^https?:\/\//.test(tenant) ? tenant : `https://${tenant}`;
  return `${base.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

export const OktaSsoSchema = v.object({
  tenant,
  domain,
  clientId: clientIdSchema,
  clientSecret,
  adminGroupId: groupId,
  agentGroupId: groupId,
});
export const OidcSsoSchema = v.object({
  discoveryUrl,
  domain,
  clientId: clientIdSchema,
  clientSecret,
});
export type AzureSsoInput = v.InferOutput<typeof AzureSsoSchema>;
export type OktaSsoInput = v.InferOutput<typeof OktaSsoSchema>;
export type OidcSsoInput = v.InferOutput<typeof OidcSsoSchema>;

/** POST /sso: the provider plus its settings keyed by its name. */
export const SsoSaveBodySchema = v.variant(
  'provider',
  [
    // Left out, the settings read as empty: each field answers its own message.
    v.object({ provider: v.literal('azure'), azure: v.optional(AzureSsoSchema, {}) }),
    v.object({ provider: v.literal('okta'), okta: v.optional(OktaSsoSchema, {}) }),
    v.object({ provider: v.literal('oidc'), oidc: v.optional(OidcSsoSchema, {}) }),
  ],
  'Choose azure, okta or oidc',
);
export type SsoSaveBody = v.InferOutput<typeof SsoSaveBodySchema>;

/** DELETE /sso */
export const SsoDeleteBodySchema = v.object({ provider: SsoProviderSchema });
export type SsoDeleteBody = v.InferOutput<typeof SsoDeleteBodySchema>;

const view = { discoveryUrl: v.string(), domain: v.string(), clientId: v.string() };
const groups = { adminGroupId: v.string(), agentGroupId: v.string() };

/**
 * Proof that the SSO domain is the account's: a TXT record named `name` holding `value` (the
 * same record and value the custom domain uses). Until `verified`, the connection routes no
 * sign-in and holds the domain against nobody.
 */
export const SsoDomainProofSchema = v.object({ name: v.string(), value: v.string(), verified: v.boolean() });
export type SsoDomainProof = v.InferOutput<typeof SsoDomainProofSchema>;

/** GET /sso and the answer of POST /sso: the connected provider's settings, secret left out. */
export const SsoSettingsSchema = v.object({
  provider: v.nullable(SsoProviderSchema),
  azure: v.nullable(v.object({ ...view, ...groups })),
  okta: v.nullable(v.object({ tenant: v.string(), ...view, ...groups })),
  /** shown as issuer, domain, clientId */
  oidc: v.nullable(v.object({ ...view, issuer: v.string() })),
  /** null when no provider is connected */
  domainProof: v.nullable(SsoDomainProofSchema),
});
export type SsoSettings = v.InferOutput<typeof SsoSettingsSchema>;

/** Public mail domains identify nobody's company: single sign-on is never connected for them. */
export const SSO_PUBLIC_DOMAIN_MESSAGE =
  "Public e-mail domains (like gmail.com) cannot use single sign-on. Enter your company's own domain.";

/** POST /sso/verify: the TXT record is not (yet) there. */
export const SSO_DOMAIN_UNPROVEN = 'SSO_DOMAIN_UNPROVEN';
export const ssoDomainUnprovenMessage = (name: string) =>
  `No TXT record with this account's verification value was found at ${name}. DNS changes can take a while to reach everyone: try again in a few minutes.`;
/** POST /sso/verify: another account proved the domain first (only someone who controls its DNS gets here). */
export const SSO_DOMAIN_TAKEN_MESSAGE =
  'This domain is already verified for single sign-on by another account. Remove the other verification first.';
