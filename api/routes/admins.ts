import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { visibleApps } from '../contract/apps';
import type { Bootstrap } from '../contract/session';
import { ApiError } from '../http/errors';
import { billingByApp } from './billing-data';

export const adminsRoutes = new Hono<AppEnv>().get('/admins/bootstrap', async (c) => {
  const session = c.var.session;
  const { db, config } = c.var.deps;
  const body = await db.tenant(session.accountId, async (trx): Promise<Bootstrap> => {
    const account = await trx.selectFrom('accounts').select(['id', 'name']).where('id', '=', session.accountId).executeTakeFirst();
    if (!account) throw new ApiError(401, 'ACCOUNT_NOT_FOUND', 'This account no longer exists.');
    const branding = await trx.selectFrom('branding').selectAll().where('account_id', '=', session.accountId).executeTakeFirst();
    // In ghost mode the staff member sees what the account's admin sees, so the app list
    // follows the account admin's e-mail, not the staff member's.
    const apps = visibleApps(session.email, config.providerEmailDomain).map((a) => a.id);
    return {
      id: session.adminId,
      account: { id: account.id, name: account.name },
      firstName: session.firstName,
      lastName: session.lastName,
      email: session.email,
      role: session.role,
      isRoot: session.isRoot,
      ghost: session.ghost,
      apps,
      billing: await billingByApp(trx, session.accountId),
      branding: {
        name: branding?.name ?? account.name,
        logo: branding?.logo ?? '',
        color: branding?.color ?? '#2563EB',
        domain: branding?.domain ?? null,
        domainIsVerified: branding?.domain_is_verified ?? false,
      },
    };
  });
  return c.json(body);
});
