import type { Session } from '../auth/context';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { audit, actorOf } from '../audit';
import { encryptSecret } from '../crypto';
import { challengeName, DNS_CHECK_FAILED, DNS_CHECK_FAILED_MESSAGE } from '../contract/branding';
import { errorText } from '../http/error-text';
import { DnsCheckError, hasTxtToken } from '../integrations/dns';
import { PUBLIC_MAIL_DOMAINS } from './resolve';
import {
  ssoDomainUnprovenMessage,
  SSO_DOMAIN_TAKEN_MESSAGE,
  SSO_DOMAIN_UNPROVEN,
  SSO_PUBLIC_DOMAIN_MESSAGE,
  DISCOVERY_URL_HTTPS,
  SSO_DISABLED_REASON,
  SSO_PROVIDER_TITLES,
  oktaDiscoveryUrl,
  type SsoProvider,
  type SsoSaveBody,
  type SsoSettings,
} from '../contract/sso';
import { discover } from './oidc';
import { isAllowlisted, outboundPolicy } from '../integrations/outbound';
import { DEV_IDP_PATH, type Config } from '../config';
import { urlScheme } from '../contract/common';
import { ssoForAccount, ssoView } from './sso';

// Single sign-on settings (admin role): one provider per account, the client secret write-only,
// the discovery document checked before anything is saved.

function settingsOf(body: SsoSaveBody) {
  switch (body.provider) {
    case 'azure':
      return { ...body.azure, tenant: null };
    case 'okta':
      return { ...body.okta, discoveryUrl: oktaDiscoveryUrl(body.okta.tenant) };
    case 'oidc':
      return { ...body.oidc, tenant: null, adminGroupId: '', agentGroupId: '' };
  }
}

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

/** The account's ownership token: the same TXT value its custom domain uses. */
async function challengeOf(deps: Deps, accountId: string): Promise<string> {
  const row = await deps.db.tenant(accountId, (trx) =>
    trx.selectFrom('accounts').select('domain_challenge').where('id', '=', accountId).executeTakeFirstOrThrow(),
  );
  return row.domain_challenge;
}

/** The account's single sign-on settings, the client secret never among them. */
export async function readSsoSettings(deps: Deps, session: Session): Promise<SsoSettings> {
  const row = await ssoForAccount(deps, session.accountId);
  return ssoView(row, await challengeOf(deps, session.accountId));
}

/**
 * A discovery URL over plain http is only for the development identity provider and the hosts
 * OUTBOUND_ALLOW_HOSTS admits (tests, development); a real provider is reached over https.
 */
function httpDiscoveryAllowed(config: Config, discoveryUrl: string): boolean {
  const url = new URL(discoveryUrl);
  if (config.devIdp && discoveryUrl.toLowerCase().startsWith(`${config.publicUrl}${DEV_IDP_PATH}`.toLowerCase())) return true;
  return isAllowlisted(outboundPolicy(config), url.hostname, url.port || '80');
}

/** Connects or updates the account's provider once its discovery document reads; `created` when it was new. */
export async function saveSsoSettings(
  deps: Deps,
  session: Session,
  body: SsoSaveBody,
): Promise<{ settings: SsoSettings; created: boolean }> {
  const input = settingsOf(body);
  // Okta has no Discovery URL field: what is wrong with the derived one is the tenant's to fix
  const urlField = body.provider === 'okta' ? 'okta.tenant' : `${body.provider}.discoveryUrl`;
  const checkWhat = body.provider === 'okta' ? 'Check the Tenant.' : 'Check the Discovery URL.';
  if (urlScheme(input.discoveryUrl) !== 'https' && !httpDiscoveryAllowed(deps.config, input.discoveryUrl)) {
    const message = body.provider === 'okta' ? 'Tenant must be reached over https://' : DISCOVERY_URL_HTTPS;
    throw new ApiError(400, 'VALIDATION_FAILED', message, { [urlField]: message });
  }
  const current = await ssoForAccount(deps, session.accountId);
  if (current && current.provider !== body.provider) throw new ApiError(409, 'SSO_PROVIDER_CONNECTED', SSO_DISABLED_REASON);
  // The stored secret was entered for one identity provider: a new discovery URL (issuer) or
  // Okta tenant is another one, and the kept secret must not be sent to its token endpoint.
  const sameDestination =
    !!current && current.discovery_url === input.discoveryUrl && (current.tenant ?? null) === (input.tenant ?? null);
  if (!input.clientSecret && !sameDestination) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Client Secret is required', {
      [`${body.provider}.clientSecret`]: 'Client Secret is required',
    });
  }
  // Public mail domains are nobody's company. Whether another account uses a domain is never
  // said here: a claim only counts once proven by DNS (POST /sso/verify).
  if (PUBLIC_MAIL_DOMAINS.has(input.domain)) {
    throw new ApiError(400, 'VALIDATION_FAILED', SSO_PUBLIC_DOMAIN_MESSAGE, {
      [`${body.provider}.domain`]: SSO_PUBLIC_DOMAIN_MESSAGE,
    });
  }

  // A provider we cannot discover would only fail later, at someone's sign-in: refuse it now.
  try {
    const oidc = await discover(deps, {
      issuer: input.discoveryUrl,
      clientId: input.clientId,
      clientSecret: input.clientSecret || 'unused',
      customerSupplied: true,
    });
    const meta = oidc.serverMetadata();
    if (!meta.authorization_endpoint || !meta.token_endpoint || !meta.jwks_uri)
      throw new Error('the document lacks authorization_endpoint, token_endpoint or jwks_uri');
  } catch (err) {
    const secrets = [input.clientSecret, input.clientId];
    deps.log(errorText(`SSO discovery check failed for ${input.discoveryUrl}`), errorText(err, { secrets }));
    // openid-client wraps the real failure ("something went wrong"): the innermost cause says why.
    const inner = errorText(err, { secrets, max: 200 }).replace(/\.$/, '');
    const from = body.provider === 'okta' ? input.discoveryUrl : 'this URL';
    const message = `The discovery document could not be read from ${from}${inner ? ` (${inner})` : ''}. ${checkWhat}`;
    throw new ApiError(400, 'SSO_DISCOVERY_FAILED', message, { [urlField]: message });
  }

  const title = SSO_PROVIDER_TITLES[body.provider];
  const row = await deps.db.tenant(session.accountId, async (trx) => {
    const values = {
      provider: body.provider,
      discovery_url: input.discoveryUrl,
      tenant: input.tenant,
      domain: input.domain,
      client_id: input.clientId,
      admin_group_id: input.adminGroupId || null,
      agent_group_id: input.agentGroupId || null,
      updated_at: deps.now(),
      // proof is of one domain: another one starts unproven
      domain_verified_at: current && current.domain === input.domain ? current.domain_verified_at : null,
      ...(input.clientSecret ? { client_secret: encryptSecret(input.clientSecret, deps.config.encryptionKey) } : {}),
    };
    const saved = current
      ? await trx
          .updateTable('sso_settings')
          .set(values)
          .where('account_id', '=', session.accountId)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('sso_settings')
          .values({
            ...values,
            account_id: session.accountId,
            client_secret: encryptSecret(input.clientSecret, deps.config.encryptionKey),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: current
        ? `Updated the ${title} single sign-on settings for ${input.domain}`
        : `Connected ${title} single sign-on for ${input.domain}`,
      event: current ? 'sso.updated' : 'sso.connected',
    });
    return saved;
  });
  return { settings: ssoView(row, await challengeOf(deps, session.accountId)), created: !current };
}

/**
 * Proves the SSO domain: the TXT record `_switchboard-challenge.<domain>` must hold this
 * account's token. Only then does the domain route sign-ins to this account's provider and
 * hold against other accounts.
 */
export async function verifySsoDomain(deps: Deps, session: Session): Promise<SsoSettings> {
  const current = await ssoForAccount(deps, session.accountId);
  if (!current) throw new ApiError(404, 'SSO_NOT_CONNECTED', 'Single sign-on is not connected.');
  const token = await challengeOf(deps, session.accountId);
  if (current.domain_verified_at) return ssoView(current, token);
  const name = challengeName(current.domain);
  let proven: boolean;
  try {
    proven = await hasTxtToken(name, token, deps.config.dnsServers);
  } catch (err) {
    if (!(err instanceof DnsCheckError)) throw err;
    deps.log(`DNS check for SSO domain ${current.domain} failed`, err);
    throw new ApiError(502, DNS_CHECK_FAILED, DNS_CHECK_FAILED_MESSAGE);
  }
  if (!proven)
    throw new ApiError(422, SSO_DOMAIN_UNPROVEN, ssoDomainUnprovenMessage(name), { domain: ssoDomainUnprovenMessage(name) });
  try {
    const row = await deps.db.tenant(session.accountId, async (trx) => {
      const saved = await trx
        .updateTable('sso_settings')
        .set({ domain_verified_at: deps.now() })
        .where('account_id', '=', session.accountId)
        .where('domain', '=', current.domain)
        .returningAll()
        .executeTakeFirst();
      if (!saved)
        throw new ApiError(409, 'SSO_CHANGED', 'The single sign-on settings changed meanwhile. Reload and verify again.');
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `Verified the domain ${current.domain} for single sign-on`,
        event: 'sso.domain-verified',
      });
      return saved;
    });
    return ssoView(row, token);
  } catch (err) {
    // only reachable by someone whose token is in the domain's DNS: they control it
    if (isUniqueViolation(err))
      throw new ApiError(409, 'SSO_DOMAIN_TAKEN', SSO_DOMAIN_TAKEN_MESSAGE, { domain: SSO_DOMAIN_TAKEN_MESSAGE });
    throw err;
  }
}

/** Disconnects the named provider; the account's people sign in with e-mail links again. */
export async function disconnectSso(deps: Deps, session: Session, provider: SsoProvider): Promise<SsoSettings> {
  const title = SSO_PROVIDER_TITLES[provider];
  await deps.db.tenant(session.accountId, async (trx) => {
    const removed = await trx.deleteFrom('sso_settings').where('provider', '=', provider).returning('domain').executeTakeFirst();
    if (!removed) throw new ApiError(404, 'SSO_NOT_CONNECTED', `${title} single sign-on is not connected.`);
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Disconnected ${title} single sign-on for ${removed.domain}`,
      event: 'sso.disconnected',
    });
  });
  return ssoView(undefined);
}
