import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Session } from '../auth/context';
import { endSessionsOf } from '../auth/sessions';
import { audit, actorOf } from '../audit';
import { visibleApps } from '../contract/apps';
import type { Bootstrap } from '../contract/session';
import type { AdminItem, RoleUpdate } from '../contract/admins';
import { ApiError } from '../http/errors';
import type { Trx } from '../db/index';
import type { Deps } from '../deps';
import { compiledOnce } from '../db/compiled';
import { billingOfRows } from '../billing/data';
import { subscribable } from '../billing/stripe';
import { brandingOf } from '../branding/data';
import { measured } from '../observability/metrics';

// The rules of Admin Management and the session's own account read (bootstrap).

const ROLE_ORDER = { owner: 0, admin: 1, supervisor: 2 } as const;

const adminNotFound = () => new ApiError(404, 'NOT_FOUND', 'There is no such administrator.');

type AdminRow = { id: string; first_name: string; last_name: string; email: string; role: AdminItem['role'] };
const itemOf = (row: AdminRow): AdminItem => ({
  id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  role: row.role,
});
const nameOf = (row: AdminRow) => [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email;

/** The active admin with this id in the caller's account, locked for the change. */
async function targetAdmin(trx: Trx, accountId: string, id: string): Promise<AdminRow> {
  const row = await trx
    .selectFrom('admins')
    .select(['id', 'first_name', 'last_name', 'email', 'role'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw adminNotFound();
  return row;
}

// Account, branding and billing in one statement (row-level security applies to each), compiled
// once: every page load pays for this read, and every round trip in it.
const BOOTSTRAP_READ = compiledOnce(1, (db, accountId) =>
  db
    .selectFrom('accounts')
    .leftJoin('branding', 'branding.account_id', 'accounts.id')
    .select([
      'accounts.id',
      'accounts.name',
      'accounts.time_zone',
      'branding.account_id as branded',
      'branding.name as brand_name',
      'branding.logo',
      'branding.color',
      'branding.domain',
      'branding.domain_is_verified',
    ])
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('app_billing')
          .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier', 'payment_failed_at'])
          .whereRef('app_billing.account_id', '=', 'accounts.id'),
      ).as('billing'),
    )
    .where('accounts.id', '=', accountId),
);

/** The signed-in admin with their account, branding, billing and the apps they may see. */
export function readBootstrap(deps: Deps, session: Session): Promise<Bootstrap> {
  return measured(deps, 'service.readBootstrap', () => bootstrapOf(deps, session));
}

async function bootstrapOf(deps: Deps, session: Session): Promise<Bootstrap> {
  return deps.db.tenant(session.accountId, async (trx): Promise<Bootstrap> => {
    const [account] = await measured(trx, 'bootstrap.read', () => BOOTSTRAP_READ.rows(trx, session.accountId));
    if (!account) throw new ApiError(401, 'ACCOUNT_NOT_FOUND', 'This account no longer exists.');
    const branding = account.branded
      ? {
          name: account.brand_name!,
          logo: account.logo!,
          color: account.color!,
          domain: account.domain,
          domain_is_verified: account.domain_is_verified!,
        }
      : undefined;
    // In ghost mode the staff member sees what the account's admin sees, so the app list
    // follows the account admin's e-mail, not the staff member's.
    const apps = visibleApps(session.email, deps.config.providerEmailDomain).map((a) => a.id);
    return {
      id: session.adminId,
      account: { id: account.id, name: account.name, timeZone: account.time_zone },
      firstName: session.firstName,
      lastName: session.lastName,
      email: session.email,
      // agent sessions never reach bootstrap (api/agents/session.ts)
      role: session.role as Exclude<typeof session.role, 'agent'>,
      isRoot: session.isRoot,
      ghost: session.ghost,
      apps,
      billing: billingOfRows(account.billing),
      branding: brandingOf(branding, account.name),
      subscribable: apps.filter((app) => subscribable(deps.config, app)),
      ...(deps.config.devStripe ? { stripeStandIn: true } : {}),
    };
  });
}

/** The account's active admins, owner first, then admins and supervisors by name. */
export async function listAdmins(deps: Deps, accountId: string): Promise<AdminItem[]> {
  const rows = await deps.db.tenant(accountId, (trx) =>
    trx
      .selectFrom('admins')
      .select(['id', 'first_name', 'last_name', 'email', 'role'])
      .where('account_id', '=', accountId)
      .where('archived_at', 'is', null)
      .execute(),
  );
  rows.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || nameOf(a).localeCompare(nameOf(b)));
  return rows.map(itemOf);
}

/** Changes an admin's or supervisor's role; their sessions end so the new role applies at once. */
export async function changeAdminRole(deps: Deps, session: Session, id: string, { role }: RoleUpdate): Promise<AdminItem> {
  return deps.db.tenant(session.accountId, async (trx) => {
    const target = await targetAdmin(trx, session.accountId, id);
    if (target.role === 'owner') throw new ApiError(409, 'OWNER_IMMUTABLE', "The account owner's role cannot be changed.");
    // an admin demoting themselves would lock themselves out of these settings mid-click
    if (target.id === session.adminId) throw new ApiError(409, 'CANNOT_CHANGE_OWN_ROLE', 'You cannot change your own role.');
    if (target.role === role) return itemOf(target);
    await trx.updateTable('admins').set({ role }).where('id', '=', target.id).execute();
    await endSessionsOf(trx, target.id, 'role-changed');
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Changed the role of ${nameOf(target)} (${target.email}) from ${target.role} to ${role}`,
      event: 'admin.role-changed',
    });
    return itemOf({ ...target, role });
  });
}

/** Archives an admin (never the owner, never oneself) and ends their sessions. */
export async function archiveAdmin(deps: Deps, session: Session, id: string): Promise<AdminItem> {
  return deps.db.tenant(session.accountId, async (trx) => {
    const target = await targetAdmin(trx, session.accountId, id);
    if (target.role === 'owner') throw new ApiError(409, 'OWNER_IMMUTABLE', 'The account owner cannot be archived.');
    if (target.id === session.adminId) throw new ApiError(409, 'CANNOT_ARCHIVE_SELF', 'You cannot archive yourself.');
    await trx.updateTable('admins').set({ archived_at: deps.now() }).where('id', '=', target.id).execute();
    await endSessionsOf(trx, target.id, 'archived');
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Archived ${nameOf(target)} (${target.email})`,
      event: 'admin.archived',
    });
    return itemOf(target);
  });
}
