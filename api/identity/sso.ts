import type { Deps } from '../deps';
import type { OidcClientSettings } from '../config';
import type { SsoProvider, SsoSettings } from '../contract/sso';
import { challengeName } from '../contract/branding';
import type { SsoSettingsTable } from '../db/schema';
import type { Selectable } from 'kysely';
import { decryptSecret } from '../crypto';
import { ApiError } from '../http/errors';
import { audit } from '../audit';
import type { SignInAdmin } from '../auth/sessions';
import type { Verified } from './oidc';
import { settleInvitations } from './invitation-outcome';

// Single sign-on: the account that owns an e-mail's domain sends its people to its own identity
// provider; who may enter is decided by the account's admin list and the admin group.

export type SsoRow = Selectable<SsoSettingsTable>;

export const ADMIN_NOT_FOUND_MESSAGE =
  'Please contact your account administrator to be added as an administrator on the account.';
export const SSO_NOT_CONFIGURED_MESSAGE = 'SSO is not configured for this email address';

/** The SSO settings whose domain is this e-mail domain (the cross-account sign-in lookup). */
export function ssoForDomain(deps: Pick<Deps, 'db'>, domain: string): Promise<SsoRow | undefined> {
  // only a domain the account proved routes anyone: a bare claim must not capture sign-ins
  return deps.db.system((trx) =>
    trx
      .selectFrom('sso_settings')
      .selectAll()
      .where('domain', '=', domain.toLowerCase())
      .where('domain_verified_at', 'is not', null)
      .executeTakeFirst(),
  );
}

export function ssoForAccount(deps: Pick<Deps, 'db'>, accountId: string): Promise<SsoRow | undefined> {
  return deps.db.tenant(accountId, (trx) => trx.selectFrom('sso_settings').selectAll().executeTakeFirst());
}

export function ssoClient(deps: Pick<Deps, 'config'>, row: SsoRow): OidcClientSettings {
  return {
    issuer: row.discovery_url,
    clientId: row.client_id,
    clientSecret: decryptSecret(row.client_secret, deps.config.encryptionKey),
    customerSupplied: true,
  };
}

/** The issuer a discovery URL names: the URL without its well-known suffix. */
export function issuerOf(discoveryUrl: string): string {
  return discoveryUrl.replace(/\/\.well-known\/openid-configuration\/?$/, '');
}

/** `challenge`: the account's ownership token (accounts.domain_challenge). */
export function ssoView(row: SsoRow | undefined, challenge = ''): SsoSettings {
  const none: SsoSettings = { provider: null, azure: null, okta: null, oidc: null, domainProof: null };
  if (!row) return none;
  none.domainProof = { name: challengeName(row.domain), value: challenge, verified: row.domain_verified_at !== null };
  const base = { discoveryUrl: row.discovery_url, domain: row.domain, clientId: row.client_id };
  const groups = { adminGroupId: row.admin_group_id ?? '', agentGroupId: row.agent_group_id ?? '' };
  switch (row.provider) {
    case 'azure':
      return { ...none, provider: 'azure', azure: { ...base, ...groups } };
    case 'okta':
      return { ...none, provider: 'okta', okta: { tenant: row.tenant ?? '', ...base, ...groups } };
    case 'oidc':
      return { ...none, provider: 'oidc', oidc: { ...base, issuer: issuerOf(row.discovery_url) } };
  }
}

/** An SSO sign-in admits an admin to the console, or an agent-group member to the agent actions only. */
export type SsoEntry = { admin: SignInAdmin } | { agentOf: string };

/**
 * Who an SSO sign-in is: an active admin of this account signs in; someone in the admin group is
 * added as an admin on first sign-in; someone only in the agent group (the ID token's groups
 * claim) gets an agent session; anyone else is ADMIN_NOT_FOUND. An admin of another account
 * never enters through this one's provider.
 */
export async function resolveSsoAdmin(deps: Pick<Deps, 'db' | 'now'>, row: SsoRow, who: Verified): Promise<SsoEntry> {
  const now = deps.now();
  return deps.db.system(async (trx) => {
    const existing = await trx
      .selectFrom('admins')
      .select(['id', 'account_id', 'email', 'role', 'is_root', 'first_name', 'last_name'])
      .where('email', '=', who.email)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    const platform: SsoProvider = row.provider;
    if (existing) {
      if (existing.account_id !== row.account_id) throw new ApiError(403, 'ADMIN_NOT_FOUND', ADMIN_NOT_FOUND_MESSAGE);
      await trx
        .updateTable('admins')
        .set({
          last_sign_in_at: now,
          first_name: existing.first_name || who.firstName,
          last_name: existing.last_name || who.lastName,
        })
        .where('id', '=', existing.id)
        .execute();
      await trx.updateTable('accounts').set({ platform }).where('id', '=', row.account_id).execute();
      return { admin: existing };
    }
    // A pending invitation to this account admits with the invited role, as on every other path.
    const invitation = await trx
      .selectFrom('invitations')
      .select(['role'])
      .where('email', '=', who.email)
      .where('account_id', '=', row.account_id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const inAdminGroup = !!row.admin_group_id && who.groups.includes(row.admin_group_id);
    if (!inAdminGroup && !invitation) {
      if (row.agent_group_id && who.groups.includes(row.agent_group_id)) return { agentOf: row.account_id };
      throw new ApiError(403, 'ADMIN_NOT_FOUND', ADMIN_NOT_FOUND_MESSAGE);
    }
    const role = inAdminGroup ? 'admin' : invitation!.role;
    const admin = await trx
      .insertInto('admins')
      .values({
        account_id: row.account_id,
        email: who.email,
        first_name: who.firstName,
        last_name: who.lastName,
        role,
        photo: null,
        time_zone: null,
        archived_at: null,
        last_sign_in_at: now,
      })
      .returning(['id', 'account_id', 'email', 'role', 'is_root'])
      .executeTakeFirstOrThrow();
    await settleInvitations(trx, who.email, row.account_id, now);
    await trx.updateTable('accounts').set({ platform }).where('id', '=', row.account_id).execute();
    await audit(
      trx,
      row.account_id,
      { id: admin.id, firstName: who.firstName, lastName: who.lastName },
      {
        namespace: 'global',
        description: inAdminGroup
          ? `${who.email} was added as admin through the SSO admin group`
          : `${who.email} accepted the invitation and joined as ${role}`,
        event: inAdminGroup ? 'admin.provisioned' : 'invitation.accepted',
      },
    );
    return { admin };
  });
}
