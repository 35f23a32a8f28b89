import { Hono } from 'hono';
import type { Trx } from '../db/index';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf, audit, type Actor } from '../audit';
import { validate } from '../http/validate';
import { isTimeZone } from '../contract/audit-log';
import { AccountTimeZoneSchema, DEFAULT_ACCOUNT_TIME_ZONE, type AccountTimeZone } from '../contract/time-zone';

// The account's time zone (Settings > Branding): every role reads it (the console formats every
// date in it), only the owner changes it, audited in the same transaction.

export async function accountTimeZone(trx: Trx, accountId: string): Promise<string> {
  const row = await trx.selectFrom('accounts').select('time_zone').where('id', '=', accountId).executeTakeFirst();
  return row?.time_zone && isTimeZone(row.time_zone) ? row.time_zone : DEFAULT_ACCOUNT_TIME_ZONE;
}

export async function setAccountTimeZone(trx: Trx, accountId: string, actor: Actor, timeZone: string): Promise<void> {
  const before = await accountTimeZone(trx, accountId);
  if (before === timeZone) return;
  await trx.updateTable('accounts').set({ time_zone: timeZone }).where('id', '=', accountId).execute();
  await audit(trx, accountId, actor, { namespace: 'global', description: `Changed the account's time zone from ${before} to ${timeZone}`, event: 'account.time-zone.updated' });
}

export const accountTimeZoneRoutes = new Hono<AppEnv>()
  .get('/account-time-zone', async (c) => {
    const { accountId } = c.var.session;
    const answer: AccountTimeZone = { timeZone: await c.var.deps.db.tenant(accountId, (trx) => accountTimeZone(trx, accountId)) };
    return c.json(answer);
  })
  .put('/account-time-zone', requireRole('owner'), validate('json', AccountTimeZoneSchema), async (c) => {
    const { timeZone } = c.req.valid('json');
    const session = c.var.session;
    await c.var.deps.db.tenant(session.accountId, (trx) => setAccountTimeZone(trx, session.accountId, actorOf(session), timeZone));
    const answer: AccountTimeZone = { timeZone };
    return c.json(answer);
  });
