import type { Deps } from '../deps';
import { decryptSecret } from '../crypto';
import { ApiError } from '../http/errors';
import { errorText } from '../http/error-text';
import { E164_PATTERN, E164_MESSAGE } from '../contract/sms';
import { OutboundError, outboundFetch, outboundErrorStatus, outboundPolicy, type OutboundResponse } from './outbound';
import { metrics } from '../observability/metrics';
import { inSpan } from '../observability/tracing';

// Twilio's REST API (2010-04-01): credentials are checked by reading the account resource,
// messages are sent by POSTing Messages.json form-encoded, both with HTTP basic auth.

type TwilioCredentials = { accountSid: string; authToken: string };

function authHeader({ accountSid, authToken }: TwilioCredentials): string {
  return `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
}

function accountUrl(deps: Pick<Deps, 'config'>, accountSid: string, suffix = ''): string {
  return `${deps.config.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}${suffix}.json`;
}

function options(deps: Pick<Deps, 'config'>) {
  return { ...outboundPolicy(deps.config), timeoutMs: 10_000, maxBytes: 256 * 1024 };
}

/** `unavailable` is the status for Twilio being unreachable: 422 while an admin saves (the
 * console shows a 4xx's message), 502 for server-side sending. */
async function call(
  deps: Pick<Deps, 'config'>,
  url: string,
  init: Parameters<typeof outboundFetch>[1],
  unavailable: 422 | 502 = 502,
): Promise<OutboundResponse> {
  try {
    return await outboundFetch(url, init, options(deps));
  } catch (err) {
    if (err instanceof OutboundError) {
      if (err.code === 'TARGET_NOT_ALLOWED') throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message);
      throw new ApiError(
        unavailable === 422 ? 422 : outboundErrorStatus(err),
        'TWILIO_UNAVAILABLE',
        `Twilio could not be reached: ${err.message}`,
      );
    }
    throw err;
  }
}

/** Twilio's error body: { code, message, more_info, status }; the message as safe text (it may quote what was sent). */
function twilioMessage(res: OutboundResponse, creds: TwilioCredentials): { code?: number; message?: string } {
  try {
    const body = res.json() as { code?: number; message?: string };
    const message =
      typeof body.message === 'string'
        ? errorText(body.message, { secrets: [creds.authToken, authHeader(creds)], max: 200 })
        : '';
    return { code: typeof body.code === 'number' ? body.code : undefined, message: message || undefined };
  } catch {
    return {};
  }
}

/** Checks the credentials against Twilio; throws ApiError 422 when Twilio refuses them. */
export async function verifyTwilioCredentials(deps: Pick<Deps, 'config'>, creds: TwilioCredentials): Promise<void> {
  const res = await call(
    deps,
    accountUrl(deps, creds.accountSid),
    { headers: { authorization: authHeader(creds), accept: 'application/json' } },
    422,
  );
  if (res.status === 401 || res.status === 403 || res.status === 404) {
    throw new ApiError(422, 'TWILIO_INVALID_CREDENTIALS', 'Twilio did not accept this Account SID and Auth Token.', {
      'twilio.authToken': 'Twilio did not accept this Account SID and Auth Token.',
    });
  }
  if (!res.ok)
    throw new ApiError(
      422,
      'TWILIO_UNAVAILABLE',
      `Twilio answered ${res.status}${twilioMessage(res, creds).message ? `: ${twilioMessage(res, creds).message}` : ''}. Please try again later.`,
    );
  let status: unknown;
  try {
    status = (res.json() as { status?: unknown }).status;
  } catch {
    throw new ApiError(422, 'TWILIO_UNAVAILABLE', 'Twilio answered with something that is not JSON.');
  }
  if (status !== undefined && status !== 'active') {
    throw new ApiError(
      422,
      'TWILIO_ACCOUNT_INACTIVE',
      `This Twilio account is ${errorText(String(status), { max: 40 })}; only active accounts can send SMS.`,
    );
  }
}

export type SentSms = { sid: string; status: string };

/** The stored Twilio settings a send needs (the token still encrypted). */
export type TwilioSettingsRow = { account_sid: string; auth_token_enc: string; phone_number: string };

/**
 * Sends one SMS through the account's Twilio settings. Errors are ApiErrors with stable codes:
 * SMS_NOT_CONFIGURED (409), SMS_INVALID_NUMBER (422), SMS_AUTH_FAILED (502), SMS_RATE_LIMITED
 * (429), SMS_REJECTED (422), TWILIO_UNAVAILABLE (502/504).
 */
export async function sendSms(
  deps: Pick<Deps, 'config' | 'db'>,
  accountId: string,
  to: string,
  body: string,
  stored?: TwilioSettingsRow,
): Promise<SentSms> {
  if (!E164_PATTERN.test(to)) throw new ApiError(422, 'SMS_INVALID_NUMBER', E164_MESSAGE);
  if (!body.trim()) throw new ApiError(422, 'SMS_REJECTED', 'The message is empty.');
  if (body.length > 1600) throw new ApiError(422, 'SMS_REJECTED', 'The message is longer than 1600 characters.');
  // the send path has read the settings already, in the transaction that admitted the send
  const settings =
    stored ??
    (await deps.db.tenant(accountId, (trx) =>
      trx
        .selectFrom('sms_settings')
        .select(['account_sid', 'auth_token_enc', 'phone_number'])
        .where('account_id', '=', accountId)
        .executeTakeFirst(),
    ));
  if (!settings) throw new ApiError(409, 'SMS_NOT_CONFIGURED', 'SMS is not configured for this account.');
  const creds = {
    accountSid: settings.account_sid,
    authToken: decryptSecret(settings.auth_token_enc, deps.config.encryptionKey),
  };
  const form = new URLSearchParams({ To: to, From: settings.phone_number, Body: body });
  const res = await inSpan(
    deps,
    'twilio messages.create',
    () =>
      call(deps, accountUrl(deps, creds.accountSid, '/Messages'), {
        method: 'POST',
        headers: {
          authorization: authHeader(creds),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
      }),
    true,
  );
  if (res.ok) {
    metrics?.sms.inc({ outcome: 'sent', reason: 'twilio' });
    const sent = res.json() as { sid?: string; status?: string };
    const sid = String(sent.sid ?? '');
    if (sid) await rememberMessage(deps, accountId, sid, to);
    return { sid, status: String(sent.status ?? 'queued') };
  }
  const { code, message } = twilioMessage(res, creds);
  metrics?.sms.inc({ outcome: 'refused', reason: res.status >= 500 ? 'TWILIO_UNAVAILABLE' : 'TWILIO_REFUSED' });
  if (res.status === 401 || res.status === 403)
    throw new ApiError(502, 'SMS_AUTH_FAILED', 'Twilio no longer accepts the saved credentials. Please reconnect Twilio.');
  if (res.status === 429)
    throw new ApiError(429, 'SMS_RATE_LIMITED', 'Twilio is rate limiting this account. Please try again shortly.');
  // 21211 invalid To, 21614 not a mobile number, 21408 region not enabled, 21610 unsubscribed
  if (res.status === 400 && (code === 21211 || code === 21614 || code === 21408))
    throw new ApiError(422, 'SMS_INVALID_NUMBER', message ?? 'Twilio cannot send to this number.');
  if (res.status >= 400 && res.status < 500)
    throw new ApiError(422, 'SMS_REJECTED', message ?? `Twilio refused the message (${res.status}).`);
  throw new ApiError(502, 'TWILIO_UNAVAILABLE', `Twilio answered ${res.status}. Please try again later.`);
}

/**
 * Keeps the provider's id of a sent message beside its number, so an erasure request can ask
 * Twilio to delete its copy (api/privacy). The message is already sent: a database that fails
 * here must not turn the send into a failure (the customer has the text), so it is not awaited
 * into the answer's fate.
 */
async function rememberMessage(deps: Pick<Deps, 'db'>, accountId: string, sid: string, to: string): Promise<void> {
  try {
    await deps.db.tenant(accountId, (trx) =>
      trx
        .insertInto('sms_messages')
        .values({ account_id: accountId, provider: 'twilio', sid, phone_number: to, sent_at: new Date() })
        .execute(),
    );
  } catch {
    // best effort: the retention job's age limit on message logs still bounds what is kept
  }
}

/** Asks Twilio to delete its copy of a message (its body and number). 404: already gone. */
export async function deleteTwilioMessage(deps: Pick<Deps, 'config'>, settings: TwilioSettingsRow, sid: string): Promise<void> {
  const creds = {
    accountSid: settings.account_sid,
    authToken: decryptSecret(settings.auth_token_enc, deps.config.encryptionKey),
  };
  const res = await call(deps, accountUrl(deps, creds.accountSid, `/Messages/${encodeURIComponent(sid)}`), {
    method: 'DELETE',
    headers: { authorization: authHeader(creds), accept: 'application/json' },
  });
  if (res.ok || res.status === 404) return;
  const { message } = twilioMessage(res, creds);
  throw new ApiError(
    502,
    'TWILIO_UNAVAILABLE',
    `Twilio did not delete message ${sid}: ${res.status}${message ? ` ${message}` : ''}`,
  );
}
