import * as v from 'valibot';
import type { Session } from '../auth/context';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import { audit, actorOf } from '../audit';
import { decryptSecret, encryptSecret } from '../crypto';
import { DEV_OUTBOX_PROVIDER, DevOutboxSaveBodySchema, smsSaveBodySchema, type SmsSettings } from '../contract/sms';
import { ApiError } from '../http/errors';
import { validationError } from '../http/validate';
import { assertStorableInput } from '../http/text-guard';
import { verifyTwilioCredentials } from '../integrations/twilio';
import type { DevSmsMessage } from '../contract/platform';
import { measured } from '../observability/metrics';

// Settings > SMS Configuration: Twilio (the auth token write-only, bound to the account SID it
// was entered with) or, outside production, the development outbox.

async function current(trx: Trx, accountId: string, production: boolean): Promise<SmsSettings> {
  const row = await trx
    .selectFrom('sms_settings')
    .select(['provider', 'account_sid', 'phone_number'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  const available = production ? {} : { devOutboxAvailable: true };
  if (row?.provider === DEV_OUTBOX_PROVIDER) return { provider: production ? null : DEV_OUTBOX_PROVIDER, ...available };
  return row
    ? { provider: row.provider, twilio: { accountSid: row.account_sid, phoneNumber: row.phone_number }, ...available }
    : { provider: null, ...available };
}

/** The account's SMS provider as the settings page shows it (never the auth token). */
export function readSmsSettings(deps: Deps, session: Session): Promise<SmsSettings> {
  return deps.db.tenant(session.accountId, (trx) => current(trx, session.accountId, deps.config.env === 'production'));
}

async function saveDevOutbox(deps: Deps, session: Session): Promise<SmsSettings> {
  const { db, config } = deps;
  // never offered in production: there the choice does not exist at all
  if (config.env === 'production')
    throw new ApiError(400, 'VALIDATION_FAILED', 'provider: Only Twilio can be configured', {
      provider: 'Only Twilio can be configured',
    });
  return db.tenant(session.accountId, async (trx) => {
    const values = { provider: DEV_OUTBOX_PROVIDER, account_sid: '', auth_token_enc: '', phone_number: '' };
    await trx
      .insertInto('sms_settings')
      .values({ account_id: session.accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: 'Chose the development outbox for SMS (messages are stored, not sent)',
      event: 'sms.configured',
    });
    return current(trx, session.accountId, false);
  });
}

/**
 * Saves the development outbox or Twilio. The body is parsed here, not by the route: whether a
 * blank auth token may keep the stored one depends on what is stored.
 */
export async function saveSmsSettings(deps: Deps, session: Session, body: unknown): Promise<SmsSettings> {
  if (v.is(DevOutboxSaveBodySchema, body)) return saveDevOutbox(deps, session);
  const { db, config } = deps;
  const stored = await db.tenant(session.accountId, (trx) =>
    trx
      .selectFrom('sms_settings')
      .select(['auth_token_enc', 'account_sid', 'provider'])
      .where('account_id', '=', session.accountId)
      .executeTakeFirst(),
  );
  // Managing a configured Twilio: a blank auth token keeps the stored one (never sent back).
  const parsed = v.safeParse(smsSaveBodySchema(stored?.provider === 'twilio'), body);
  if (!parsed.success) throw validationError(parsed.issues);
  assertStorableInput(body);
  const { twilio } = parsed.output;
  // The stored token is Twilio's for the account SID it was entered with: with another SID it
  // would be sent for an account it does not belong to, so it must be typed again.
  if (!twilio.authToken && stored?.provider === 'twilio' && stored.account_sid !== twilio.accountSid) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Auth Token is required', { 'twilio.authToken': 'Auth Token is required' });
  }
  const keepToken = !twilio.authToken && stored?.provider === 'twilio' && stored;
  const authToken = keepToken ? decryptSecret(stored.auth_token_enc, config.encryptionKey) : twilio.authToken;
  // Outside the transaction: a slow Twilio must not hold a database connection.
  await verifyTwilioCredentials(deps, { accountSid: twilio.accountSid, authToken });
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
  return answer;
}

/** Removes the provider: no SMS leaves until one is configured again. */
export async function disconnectSms(deps: Deps, session: Session): Promise<SmsSettings> {
  const answer = await deps.db.tenant(session.accountId, async (trx) => {
    const removed = await trx
      .deleteFrom('sms_settings')
      .where('account_id', '=', session.accountId)
      .returning('provider')
      .executeTakeFirst();
    if (removed) {
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: removed.provider === DEV_OUTBOX_PROVIDER ? 'Disconnected the development outbox' : 'Disconnected Twilio',
        event: 'sms.disconnected',
      });
    }
    return current(trx, session.accountId, deps.config.env === 'production');
  });
  return answer;
}

/**
 * Whether the account's texts go to the development outbox (never in production): an agent
 * action's result then links to it, where a fresh machine's customer messages are read.
 */
export async function sentToDevOutbox(deps: Deps, accountId: string): Promise<boolean> {
  if (deps.config.env === 'production') return false;
  const row = await deps.db.tenant(accountId, (trx) =>
    measured(trx, 'sms.dev-outbox', () =>
      trx.selectFrom('sms_settings').select('provider').where('account_id', '=', accountId).executeTakeFirst(),
    ),
  );
  return row?.provider === DEV_OUTBOX_PROVIDER;
}

/**
 * The development outbox's newest `limit` messages, newest first, and whether older ones exist.
 * A longer look asks for a larger `limit` rather than the next page: new messages keep arriving
 * at the top, and one read of the newest N leaves no gap.
 */
export async function devOutboxMessages(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  limit: number,
): Promise<{ messages: DevSmsMessage[]; more: boolean }> {
  const rows = await deps.db.tenant(accountId, (trx) =>
    trx
      .selectFrom('dev_sms_outbox')
      .select(['id', 'to_number', 'body', 'created_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute(),
  );
  return {
    messages: rows
      .slice(0, limit)
      .map((r): DevSmsMessage => ({ id: r.id, to: r.to_number, body: r.body, createdAt: new Date(r.created_at).toISOString() })),
    more: rows.length > limit,
  };
}
