import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import { validate } from '../http/validate';
import { SmsGuardSaveBodySchema, SmsReleaseParamSchema } from '../contract/sms-guard';
import { releaseHold, saveSmsGuard, smsGuardOf } from '../sms-guard/service';
import { disconnectSms, readSmsSettings, saveSmsSettings } from './service';

export const smsRoutes = new Hono<AppEnv>()
  .use('/sms', requireRole('admin'))
  .use('/sms/*', requireRole('admin'))
  // the fraud guard: allowed countries, pumping rules, held number ranges (docs/sms-guard.md)
  .get('/sms/guard', async (c) => {
    const { accountId } = c.var.session;
    return c.json(await c.var.deps.db.tenant(accountId, (trx) => smsGuardOf(trx, accountId, c.var.deps.now())));
  })
  .put('/sms/guard', validate('json', SmsGuardSaveBodySchema), async (c) => {
    const session = c.var.session;
    const body = c.req.valid('json');
    return c.json(await c.var.deps.db.tenant(session.accountId, (trx) => saveSmsGuard(trx, session.accountId, actorOf(session), body, c.var.deps.now())));
  })
  .post('/sms/guard/holds/:prefix/release', validate('param', SmsReleaseParamSchema), async (c) => {
    const session = c.var.session;
    const { prefix } = c.req.valid('param');
    return c.json(await c.var.deps.db.tenant(session.accountId, (trx) => releaseHold(trx, session.accountId, actorOf(session), prefix, c.var.deps.now())));
  })
  .get('/sms', async (c) => c.json(await readSmsSettings(c.var.deps, c.var.session)))
  // Twilio and the development outbox take different bodies, told apart in saveSmsSettings
  .post('/sms', validate('json', v.unknown(), { textRuleInRoute: true }), async (c) => c.json(await saveSmsSettings(c.var.deps, c.var.session, c.req.valid('json'))))
  .delete('/sms', async (c) => c.json(await disconnectSms(c.var.deps, c.var.session)));
