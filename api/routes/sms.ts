import { Hono, type Context } from 'hono';
import { ApiError } from '../http/errors';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import * as v from 'valibot';
import { decryptSecret, encryptSecret } from '../crypto';
import { DEV_OUTBOX_PROVIDER, DevOutboxSaveBodySchema, smsSaveBodySchema, type SmsSettings } from '../contract/sms';
import { validate, validationError } from '../http/validate';
import { assertStorableInput } from '../http/text-guard';
import { verifyTwilioCredentials } from '../integrations/twilio';
import type { Trx } from '../db/index';
import { SmsGuardSaveBodySchema, SmsReleaseParamSchema } from '../contract/sms-guard';
import { releaseHold, saveSmsGuard, smsGuardOf } from '../sms-guard/service';

async function current(trx: Trx, accountId: string, production: boolean): Promise<SmsSettings> {
  const row = await trx.selectFrom('sms_settings').select(['provider', 'account_sid', 'phone_number']).where('account_id', '=', accountId).executeTakeFirst();
  const available = production ? {} : { devOutboxAvailable: true };
  if (row?.provider === DEV_OUTBOX_PROVIDER) return { provider: production ? null : DEV_OUTBOX_PROVIDER, ...available };
  return row ? { provider: row.provider, twilio: { accountSid: row.account_sid, phoneNumber: row.phone_number }, ...available } : { provider: null, ...available };
}

async function saveDevOutbox(c: Context<AppEnv>) {
  const session = c.var.session;
  const { db, config } = c.var.deps;
  // never offered in production: there the choice does not exist at all
  if (config.env === 'production') throw new ApiError(400, 'VALIDATION_FAILED', 'provider: Only Twilio can be configured', { provider: 'Only Twilio can be configured' });
  return db.tenant(session.accountId, async (trx) => {
    const values = { provider: DEV_OUTBOX_PROVIDER, account_sid: '', auth_token_enc: '', phone_number: '' };
    await trx
      .insertInto('sms_settings')
      .values({ account_id: session.accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
    await audit(trx, session.accountId, actorOf(session), { namespace: 'global', description: 'Chose the development outbox for SMS (messages are stored, not sent)', event: 'sms.configured' });
    return current(trx, session.accountId, false);
  });
}

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
  .get('/sms', async (c) => {
    const { accountId } = c.var.session;
    return c.json(await c.var.deps.db.tenant(accountId, (trx) => current(trx, accountId, c.var.deps.config.env === 'production')));
  })
  .post('/sms', validate('json', v.unknown(), { textRuleInRoute: true }), async (c) => {
    if (v.is(DevOutboxSaveBodySchema, c.req.valid('json'))) return c.json(await saveDevOutbox(c));
    const session = c.var.session;
    const { db, config } = c.var.deps;
    const stored = await db.tenant(session.accountId, (trx) =>
      trx.selectFrom('sms_settings').select(['auth_token_enc', 'account_sid', 'provider']).where('account_id', '=', session.accountId).executeTakeFirst(),
    );
    // Managing a configured Twilio: a blank auth token keeps the stored one (never sent back).
    const parsed = v.safeParse(smsSaveBodySchema(stored?.provider === 'twilio'), c.req.valid('json'));
    if (!parsed.success) throw validationError(parsed.issues);
    assertStorableInput(c.req.valid('json'));
    const { twilio } = parsed.output;
    // The stored token is Twilio's for the account SID it was entered with: with another SID it
    // would be sent for an account it does not belong to, so it must be typed again.
    if (!twilio.authToken && stored?.provider === 'twilio' && stored.account_sid !== twilio.accountSid) {
      throw new ApiError(400, 'VALIDATION_FAILED', 'Auth Token is required', { 'twilio.authToken': 'Auth Token is required' });
    }
    const keepToken = !twilio.authToken && stored?.provider === 'twilio' && stored;
    const authToken = keepToken ? decryptSecret(stored.auth_token_enc, config.encryptionKey) : twilio.authToken;
    // Outside the transaction: a slow Twilio must not hold a database connection.
    await verifyTwilioCredentials(c.var.deps, { accountSid: twilio.accountSid, authToken });
    const answer = await db.tenant(session.accountId, async (trx) => {
      const values = {
        provider: 'twilio' as const,
        account_sid: twilio.accountSid,
        auth_token_enc: keepToken ? stored.auth_token_enc : encryptSecret(authToken, config.encryptionKey),
        phone_number: twilio.phoneNumber,
      };
      await trx
        .insertInto('sms_settings')
        .values({ account_id: session.accountId, ...values })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: new Date() }))
        .execute();
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `Configured Twilio for SMS (account ${twilio.accountSid}, sending from ${twilio.phoneNumber}${keepToken ? ', auth token kept' : ''})`,
        event: 'sms.configured',
      });
      return current(trx, session.accountId, config.env === 'production');
    });
    return c.json(answer);
  })
  .delete('/sms', async (c) => {
    const session = c.var.session;
    const answer = await c.var.deps.db.tenant(session.accountId, async (trx) => {
      const removed = await trx.deleteFrom('sms_settings').where('account_id', '=', session.accountId).returning('provider').executeTakeFirst();
      if (removed) {
        await audit(trx, session.accountId, actorOf(session), { namespace: 'global', description: removed.provider === DEV_OUTBOX_PROVIDER ? 'Disconnected the development outbox' : 'Disconnected Twilio', event: 'sms.disconnected' });
      }
      return current(trx, session.accountId, c.var.deps.config.env === 'production');
    });
    return c.json(answer);
  });
