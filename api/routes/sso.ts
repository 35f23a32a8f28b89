import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { validate } from '../http/validate';
import { ApiError } from '../http/errors';
import { audit, actorOf } from '../audit';
import { encryptSecret } from '../crypto';
import {
  SsoDeleteBodySchema,
  SsoSaveBodySchema,
  DISCOVERY_URL_HTTPS,
  SSO_DISABLED_REASON,
  SSO_PROVIDER_TITLES,
  type SsoSaveBody,
  type SsoSettings,
} from '../contract/sso';
import { discover } from '../identity/oidc';
import { isAllowlisted, outboundPolicy } from '../integrations/outbound';
import { DEV_IDP_PATH, type Config } from '../config';
import { urlScheme } from '../contract/common';
import { ssoForAccount, ssoView } from '../identity/sso';

// Single sign-on settings (admin role): one provider per account, the client secret write-only,
// the discovery document checked before anything is saved.

function settingsOf(body: SsoSaveBody) {
  switch (body.provider) {
    case 'azure':
      return { ...body.azure, tenant: null };
    case 'okta':
      return { ...body.okta };
    case 'oidc':
      return { ...body.oidc, tenant: null, adminGroupId: '', agentGroupId: '' };
  }
}

export const ssoRoutes = new Hono<AppEnv>();
ssoRoutes.use('/sso', requireRole('admin'));

ssoRoutes.get('/sso', async (c) => {
  const row = await ssoForAccount(c.var.deps, c.var.session.accountId);
  return c.json(ssoView(row) satisfies SsoSettings);
});

/**
 * A discovery URL over plain http is only for the development identity provider and the hosts
 * OUTBOUND_ALLOW_HOSTS admits (tests, development); a real provider is reached over https.
 */
function httpDiscoveryAllowed(config: Config, discoveryUrl: string): boolean {
  const url = new URL(discoveryUrl);
  if (config.devIdp && discoveryUrl.toLowerCase().startsWith(`${config.publicUrl}${DEV_IDP_PATH}`.toLowerCase())) return true;
  return isAllowlisted(outboundPolicy(config), url.hostname, url.port || '80');
}

ssoRoutes.post('/sso', validate('json', SsoSaveBodySchema), async (c) => {
  const deps = c.var.deps;
  const session = c.var.session;
  const body = c.req.valid('json');
  const input = settingsOf(body);
  if (urlScheme(input.discoveryUrl) !== 'https' && !httpDiscoveryAllowed(deps.config, input.discoveryUrl)) {
    throw new ApiError(400, 'VALIDATION_FAILED', DISCOVERY_URL_HTTPS, { [`${body.provider}.discoveryUrl`]: DISCOVERY_URL_HTTPS });
  }
  const current = await ssoForAccount(deps, session.accountId);
  if (current && current.provider !== body.provider) throw new ApiError(409, 'SSO_PROVIDER_CONNECTED', SSO_DISABLED_REASON);
  if (!input.clientSecret && !current) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Client Secret is required', { [`${body.provider}.clientSecret`]: 'Client Secret is required' });
  }
  const taken = await deps.db.system((trx) =>
    trx
      .selectFrom('accounts')
      .leftJoin('sso_settings', 'sso_settings.account_id', 'accounts.id')
      .select('accounts.id')
      .where('accounts.id', '!=', session.accountId)
      .where((eb) => eb.or([eb('accounts.email_domain', '=', input.domain), eb('sso_settings.domain', '=', input.domain)]))
      .executeTakeFirst(),
  );
  if (taken) {
    const message = 'This domain belongs to another account.';
    throw new ApiError(409, 'SSO_DOMAIN_TAKEN', message, { [`${body.provider}.domain`]: message });
  }

  // A provider we cannot discover would only fail later, at someone's sign-in: refuse it now.
  try {
    const oidc = await discover(deps, { issuer: input.discoveryUrl, clientId: input.clientId, clientSecret: input.clientSecret || 'unused', customerSupplied: true });
    const meta = oidc.serverMetadata();
    if (!meta.authorization_endpoint || !meta.token_endpoint || !meta.jwks_uri) throw new Error('the document lacks authorization_endpoint, token_endpoint or jwks_uri');
  } catch (err) {
    deps.log(`SSO discovery check failed for ${input.discoveryUrl}`, err);
    // openid-client wraps the real failure ("something went wrong"): the innermost cause says why.
    let inner: unknown = err;
    while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
    const reason = inner instanceof Error && inner.message ? ` (${inner.message.slice(0, 200).replace(/\.$/, '')})` : '';
    const message = `The discovery document could not be read from this URL${reason}. Check the Discovery URL.`;
    throw new ApiError(400, 'SSO_DISCOVERY_FAILED', message, { [`${body.provider}.discoveryUrl`]: message });
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
      ...(input.clientSecret ? { client_secret: encryptSecret(input.clientSecret, deps.config.encryptionKey) } : {}),
    };
    const saved = current
      ? await trx.updateTable('sso_settings').set(values).where('account_id', '=', session.accountId).returningAll().executeTakeFirstOrThrow()
      : await trx
          .insertInto('sso_settings')
          .values({ ...values, account_id: session.accountId, client_secret: encryptSecret(input.clientSecret, deps.config.encryptionKey) })
          .returningAll()
          .executeTakeFirstOrThrow();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: current ? `Updated the ${title} single sign-on settings for ${input.domain}` : `Connected ${title} single sign-on for ${input.domain}`,
      event: current ? 'sso.updated' : 'sso.connected',
    });
    return saved;
  });
  return c.json(ssoView(row) satisfies SsoSettings, current ? 200 : 201);
});

ssoRoutes.delete('/sso', validate('json', SsoDeleteBodySchema), async (c) => {
  const deps = c.var.deps;
  const session = c.var.session;
  const { provider } = c.req.valid('json');
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
  return c.json(ssoView(undefined) satisfies SsoSettings);
});
