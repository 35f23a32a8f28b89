import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../auth/context';
import { requireRead, requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { DEV_OUTBOX_MORE_HEADER, DEV_OUTBOX_PAGE_SIZE, DevSmsOutboxQuerySchema } from '../contract/platform';
import { SmsGuardSaveBodySchema, SmsReleaseParamSchema } from '../contract/sms-guard';
import { releaseHold, saveSmsGuard, smsGuardOf } from '../sms-guard/service';
import { devOutboxMessages, disconnectSms, readSmsSettings, saveSmsSettings } from './service';

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
    return c.json(
      await c.var.deps.db.tenant(session.accountId, (trx) =>
        saveSmsGuard(trx, session.accountId, actorOf(session), body, c.var.deps.now()),
      ),
    );
  })
  .post('/sms/guard/holds/:prefix/release', validate('param', SmsReleaseParamSchema), async (c) => {
    const session = c.var.session;
    const { prefix } = c.req.valid('param');
    return c.json(
      await c.var.deps.db.tenant(session.accountId, (trx) =>
        releaseHold(trx, session.accountId, actorOf(session), prefix, c.var.deps.now()),
      ),
    );
  })
  .get('/sms', async (c) => c.json(await readSmsSettings(c.var.deps, c.var.session)))
  // Twilio and the development outbox take different bodies, told apart in saveSmsSettings
  .post('/sms', validate('json', v.unknown(), { textRuleInRoute: true }), async (c) =>
    c.json(await saveSmsSettings(c.var.deps, c.var.session, c.req.valid('json'))),
  )
  .delete('/sms', async (c) => c.json(await disconnectSms(c.var.deps, c.var.session)))

  /** The development outbox (never in production): the account's newest messages, newest first. */
  .get('/dev/sms-outbox', requireRead('outbox'), validate('query', DevSmsOutboxQuerySchema), async (c) => {
    if (c.var.deps.config.env === 'production') throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
    const { limit = DEV_OUTBOX_PAGE_SIZE } = c.req.valid('query');
    const { messages, more } = await devOutboxMessages(c.var.deps, c.var.session.accountId, limit);
    c.header(DEV_OUTBOX_MORE_HEADER, String(more));
    c.header('access-control-expose-headers', DEV_OUTBOX_MORE_HEADER);
    return c.json(messages);
  });
