import { sql } from 'kysely';
import type { Deps } from '../deps';
import { issueSessionToken } from '../auth/sessions';
import { resolveVerifiedEmail, type VerifiedIdentity } from './resolve';
import { AGENT_TOKEN_HOURS } from '../agents/session';

/**
 * The account a non-admin host user may act for as an agent: their verified e-mail's domain is
 * one the account has proven it owns (its company domain, its custom domain verified with the
 * TXT proof, or its SSO domain verified the same way). Null when none. Host tokens carry no
 * groups, so the SSO agent group is checked only on SSO sign-ins (api/identity/sso.ts).
 */
export async function agentAccountFor(deps: Pick<Deps, 'db'>, email: string): Promise<string | null> {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!domain) return null;
  const row = await deps.db.system((trx) =>
    sql<{ id: string }>`select id from accounts where email_domain = ${domain}
      union all select account_id from branding where domain = ${domain} and domain_is_verified
      union all select account_id from sso_settings where domain = ${domain} and domain_verified_at is not null
      limit 1`.execute(trx),
  );
  return row.rows[0]?.id ?? null;
}

/** A short agent session: role 'agent', reaching only the agent routes. */
export async function issueAgentToken(deps: Pick<Deps, 'tokens'>, accountId: string, email: string): Promise<string> {
  return deps.tokens.sign(
    { sub: `agent:${email}`, acc: accountId, role: 'agent', root: false, ghost: false, email },
    AGENT_TOKEN_HOURS * 3600,
  );
}

/**
 * Sign-in from the Zoom and Webex hosts: admins (and invited admins) get their console session;
 * anyone else whose e-mail is in a domain an account proved it owns gets an agent session of
 * that account; everyone else goes the usual way (a new account, or ACCOUNT_EXISTS).
 */
export async function hostSignIn(
  deps: Pick<Deps, 'db' | 'now' | 'tokens' | 'config'>,
  identity: VerifiedIdentity,
): Promise<{ token: string; role: 'owner' | 'admin' | 'supervisor' | 'agent' }> {
  const email = identity.email.trim().toLowerCase();
  const known = await deps.db.system((trx) =>
    sql<{ n: number }>`select (select count(*) from admins where email = ${email} and archived_at is null)
      + (select count(*) from invitations where email = ${email} and expires_at > ${deps.now()}) as n`.execute(trx),
  );
  if (Number(known.rows[0]?.n ?? 0) === 0) {
    const accountId = await agentAccountFor(deps, email);
    if (accountId) return { token: await issueAgentToken(deps, accountId, email), role: 'agent' };
  }
  const { admin } = await resolveVerifiedEmail(deps, identity);
  return { token: await issueSessionToken(deps, admin), role: admin.role };
}
