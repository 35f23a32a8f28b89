import { sql } from 'kysely';
import * as v from 'valibot';
import type { Trx } from '../db/index';
import { ApiError } from '../http/errors';
import { audit, type Actor } from '../audit';
import { notify } from '../notifications/notify';
import { DEV_OUTBOX_PROVIDER } from '../contract/sms';
import { maskPhone } from '../contract/platform';
import {
  SMS_GUARD_DEFAULT_RULES,
  SmsGuardRulesSchema,
  type SmsGuard,
  type SmsGuardRules,
  type SmsHold,
} from '../contract/sms-guard';
import { classifyNumber, knownCountries, REFUSED_TYPES, type NumberClass } from './classify';
import { accountDates } from '../account-dates';
import { metrics } from '../observability/metrics';

// The SMS fraud guard: every SMS any app sends passes here (through sendAccountSms and the apps'
// first transaction), so geo permissions, refused number types and pumping holds have one home.

/**
 * The development outbox's default countries: the countries of the demo data (every seeded
 * number is +1 555 …, a US range). Twilio's default is the country of the sender number.
 */
export const DEV_OUTBOX_COUNTRIES = ['US'];

const HOUR_MS = 3_600_000;

export type SmsProvider = 'twilio' | typeof DEV_OUTBOX_PROVIDER;

/** What one read tells about an account's SMS: its provider (with credentials) and its guard. */
export type SmsAccountState = {
  provider: SmsProvider | null;
  accountSid: string;
  authTokenEnc: string;
  senderNumber: string;
  allowedCountries: string[];
  isDefault: boolean;
  rules: SmsGuardRules;
  pumpingGuard: boolean;
  pumpingGuardSet: boolean | null;
};

type StateRow = {
  provider: SmsProvider | null;
  account_sid: string | null;
  auth_token_enc: string | null;
  phone_number: string | null;
  allowed_countries: string[] | null;
  pumping_guard: boolean | null;
  volume_multiplier: number | null;
  volume_allowance: number | null;
  baseline_days: number | null;
  conversion_window: number | null;
  conversion_min_percent: number | null;
  conversion_grace_seconds: number | null;
  hold_minutes: number | null;
  pumping_on: boolean;
  held_until: Date | null;
  held_scope: string | null;
};

const countryName = new Intl.DisplayNames(['en'], { type: 'region' });
export const nameOfCountry = (code: string) => {
  try {
    return countryName.of(code) ?? code;
  } catch {
    return code;
  }
};

export function defaultCountries(provider: SmsProvider | null, senderNumber: string): string[] {
  if (provider === DEV_OUTBOX_PROVIDER) return DEV_OUTBOX_COUNTRIES;
  const sender = senderNumber ? classifyNumber(senderNumber)?.country : undefined;
  return sender ? [sender] : [];
}

function stateOf(r: StateRow | undefined): SmsAccountState {
  const provider = r?.provider ?? null;
  const senderNumber = r?.phone_number ?? '';
  const stored =
    r?.volume_multiplier == null
      ? null
      : {
          volumeMultiplier: Number(r.volume_multiplier),
          volumeAllowance: r.volume_allowance!,
          baselineDays: r.baseline_days!,
          conversionWindow: r.conversion_window!,
          conversionMinPercent: r.conversion_min_percent!,
          conversionGraceSeconds: r.conversion_grace_seconds!,
          holdMinutes: r.hold_minutes!,
        };
  const rules = stored && v.is(SmsGuardRulesSchema, stored) ? stored : SMS_GUARD_DEFAULT_RULES;
  const allowed = r?.allowed_countries ?? null;
  return {
    provider,
    accountSid: r?.account_sid ?? '',
    authTokenEnc: r?.auth_token_enc ?? '',
    senderNumber,
    allowedCountries: allowed ?? defaultCountries(provider, senderNumber),
    isDefault: allowed === null,
    rules,
    pumpingGuard: r ? r.pumping_on : true,
    pumpingGuardSet: r?.pumping_guard ?? null,
  };
}

// Whether the pumping rules run for an account: its own setting, else on with Twilio and off with
// the development outbox (which pays nothing). SQL over the joins below (s: sms_settings,
// g: sms_guard_settings), so the state read and the range's counting agree.
const PUMPING_ON = sql<boolean>`coalesce(g.pumping_guard, s.provider is distinct from ${DEV_OUTBOX_PROVIDER})`;
const ACCOUNT_SMS = (accountId: string) => sql`(select ${accountId}::uuid as id) a
      left join sms_settings s on s.account_id = a.id
      left join sms_guard_settings g on g.account_id = a.id`;

/**
 * The account's SMS provider, credentials and guard settings, and whether `prefix` is held now
 * (or its `country`, or the whole account: the spread rules' holds), in one statement (the send
 * path's busiest read); `smsStateOf` reads its row.
 */
export function smsStateQuery(accountId: string, prefix: string | null, now: Date, country: string | null = null) {
  const held = sql`from sms_guard_prefixes p where p.account_id = a.id and p.prefix in (${prefix ?? ''}, ${country ?? ''}, ${ACCOUNT_SCOPE}) and p.held_until > ${now}
        order by p.held_until desc limit 1`;
  return sql<StateRow>`select s.provider, s.account_sid, s.auth_token_enc, s.phone_number, g.allowed_countries, g.pumping_guard, g.volume_multiplier, g.volume_allowance,
        g.baseline_days, g.conversion_window, g.conversion_min_percent, g.conversion_grace_seconds, g.hold_minutes, ${PUMPING_ON} as pumping_on,
        (select p.held_until ${held}) as held_until, (select p.prefix ${held}) as held_scope
      from ${ACCOUNT_SMS(accountId)}`;
}

export type SmsState = SmsAccountState & { heldUntil: Date | null; heldScope: string | null };

export function smsStateOf(rows: StateRow[]): SmsState {
  const r = rows[0];
  return { ...stateOf(r), heldUntil: r?.held_until ? new Date(r.held_until) : null, heldScope: r?.held_scope ?? null };
}

export async function smsAccountState(trx: Trx, accountId: string, number: NumberClass | null, now: Date): Promise<SmsState> {
  return smsStateOf((await smsStateQuery(accountId, number?.prefix ?? null, now, number?.country ?? null).execute(trx)).rows);
}

/** The key of an account-wide hold in sms_guard_prefixes (a country's is its ISO code, a range's its digits). */
export const ACCOUNT_SCOPE = 'all';

/** What a hold's key covers, in words: "numbers starting +1415", "numbers in Canada (CA)", "any number". */
export function describeScope(prefix: string): string {
  if (prefix === ACCOUNT_SCOPE) return 'any number';
  if (/^[A-Z]{2}$/.test(prefix)) return `numbers in ${nameOfCountry(prefix)} (${prefix})`;
  return `numbers starting ${prefix}`;
}

export function heldError(prefix: string, heldUntil: Date, now: Date): ApiError {
  // made only when a send is held, on every path (the guard, a held range, One-Time Passcode's own)
  metrics?.sms.inc({ outcome: 'held', reason: 'SMS_PUMPING_SUSPECTED' });
  const retryAfter = Math.max(1, Math.ceil((heldUntil.getTime() - now.getTime()) / 1000));
  return new ApiError(
    429,
    'SMS_PUMPING_SUSPECTED',
    `SMS to ${describeScope(prefix)} are held: the traffic to them looks like SMS pumping. An admin can release them under Settings > SMS Configuration; otherwise retry in ${retryAfter} seconds.`,
    undefined,
    { 'Retry-After': String(retryAfter) },
  );
}

/**
 * The destination checks that need no counting: the number's type (premium rate and shared cost
 * are refused everywhere; through Twilio, so is a number the metadata does not know), its
 * country against the allowed list, and a hold on its range. Throws the refusal.
 */
export function checkDestination(state: SmsState, to: string, now: Date): NumberClass {
  try {
    return destinationOf(state, to, now);
  } catch (err) {
    // held ranges count themselves (heldError); what is left is a refusal by its code
    if (err instanceof ApiError && err.code !== 'SMS_PUMPING_SUSPECTED')
      metrics?.sms.inc({ outcome: 'refused', reason: err.code });
    throw err;
  }
}

function destinationOf(state: SmsState, to: string, now: Date): NumberClass {
  const number = classifyNumber(to);
  const masked = maskPhone(to);
  if (!number) throw new ApiError(422, 'NUMBER_TYPE_NOT_ALLOWED', `${masked} is not a phone number of any country.`);
  const refused = number.type ? REFUSED_TYPES[number.type] : undefined;
  if (refused)
    throw new ApiError(
      422,
      'NUMBER_TYPE_NOT_ALLOWED',
      `${masked} is ${refused}: verification SMS are never sent to premium-rate or shared-cost numbers.`,
    );
  // the development outbox sends nothing, and the demo data and tests use ranges reserved for fiction
  if (!number.valid && state.provider !== DEV_OUTBOX_PROVIDER) {
    throw new ApiError(422, 'NUMBER_TYPE_NOT_ALLOWED', `${masked} is not a valid number in ${nameOfCountry(number.country)}.`);
  }
  if (!state.allowedCountries.includes(number.country)) {
    throw new ApiError(
      403,
      'COUNTRY_NOT_ALLOWED',
      `SMS to ${nameOfCountry(number.country)} (${number.country}) are not allowed for this account. An admin can allow the country under Settings > SMS Configuration.`,
    );
  }
  if (state.heldUntil) throw heldError(state.heldScope ?? number.prefix, state.heldUntil, now);
  return number;
}

/**
 * The spread rules (docs/sms-guard.md#pumping-spread-over-ranges): pumping spread over many ranges
 * of a country, or over countries, is held by what it never does, complete. A send is judged
 * (answered or not) once it is older than `graceSeconds`, so conversion is known while a burst
 * runs. A country (or the account) is held when its unanswered sends since the hour began exceed
 * an allowance above the account's usual hour there (volumeMultiplier × the sum of its ranges'
 * baselines), unless the latest judged sends show people answering (at least `minJudged` of them
 * and `minPercent` answered). Ranges the account has sent to before are weighed by that baseline;
 * ranges it never reached add nothing to the allowance.
 */
export const SPREAD_RULES = {
  graceSeconds: 30,
  countryAllowance: 40,
  accountAllowance: 100,
  minJudged: 20,
  minPercent: 20,
  judgedWindow: 50,
} as const;
/** unanswered sends counted at most (a bound on the count's work; far above any allowance) */
const SPREAD_SCAN = 5_000;

/** A range's row as its counting needs it. */
export type RangeRow = { held_until: Date | null; released_at: Date | null; baseline_hourly: number; baseline_at: Date | null };

/**
 * The range's row, made on its first send, locked until the sending transaction ends (sends to
 * one range are counted one at a time). Only when the account's pumping rules are on: otherwise
 * it writes nothing and answers no row, so it can travel with the send's first reads.
 */
export function lockRange(accountId: string, number: NumberClass) {
  return sql<RangeRow>`insert into sms_guard_prefixes as p (account_id, prefix, country)
      select ${accountId}, ${number.prefix}, ${number.country} from ${ACCOUNT_SMS(accountId)} where ${PUMPING_ON}
      on conflict (account_id, prefix) do update set country = excluded.country
      returning held_until, released_at, baseline_hourly, baseline_at`;
}

/** How one send to a locked range is counted: from when, against what. */
export type Counting = { since: Date; threshold: number; graceCutoff: Date; baseline: number };

/**
 * The range's usual hour (recomputed at most hourly: the only round trip of its own here) and the
 * counting that follows from it.
 */
export async function countingOf(
  trx: Trx,
  accountId: string,
  number: NumberClass,
  range: RangeRow,
  rules: SmsGuardRules,
  now: Date,
): Promise<Counting> {
  let baseline = Number(range.baseline_hourly);
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  if (!range.baseline_at || new Date(range.baseline_at) < hourAgo) {
    // the average hour of the baseline days before the last hour, recomputed at most hourly
    const from = new Date(hourAgo.getTime() - rules.baselineDays * 24 * HOUR_MS);
    baseline = (
      await sql<{ hourly: number }>`update sms_guard_prefixes set baseline_at = ${now},
          baseline_hourly = (select count(*) from sms_guard_sends where account_id = ${accountId} and prefix = ${number.prefix} and ts > ${from} and ts <= ${hourAgo})::real / ${rules.baselineDays * 24}
        where account_id = ${accountId} and prefix = ${number.prefix} returning baseline_hourly as hourly`.execute(trx)
    ).rows[0]!.hourly;
  }
  // counting starts again after a release: what an admin let through is not held again at once
  const since = range.released_at && new Date(range.released_at) > hourAgo ? new Date(range.released_at) : hourAgo;
  return {
    since,
    threshold: Math.floor(rules.volumeMultiplier * baseline + rules.volumeAllowance),
    graceCutoff: new Date(now.getTime() - rules.conversionGraceSeconds * 1000),
    baseline,
  };
}

type Counts = {
  last_hour: number;
  judged: number;
  answered: number;
  country_open: number;
  country_judged: number;
  country_answered: number;
  country_baseline: number;
  account_open: number;
  account_judged: number;
  account_answered: number;
  account_baseline: number;
};

/** Records the send and counts its range's, its country's and the account's recent sends, in one statement (`verdictOf` judges them). */
export function countSend(
  accountId: string,
  number: NumberClass,
  to: string,
  counting: Counting,
  rules: SmsGuardRules,
  now: Date,
) {
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const judgedBy = new Date(now.getTime() - SPREAD_RULES.graceSeconds * 1000);
  // counting of a country or the account starts again after an admin released its hold
  const since = (key: string) =>
    sql`greatest(${hourAgo}::timestamptz, coalesce((select released_at from sms_guard_prefixes where account_id = ${accountId} and prefix = ${key}), '-infinity'))`;
  return sql<Counts>`
      with ins as (insert into sms_guard_sends (account_id, prefix, country, phone_number, ts) values (${accountId}, ${number.prefix}, ${number.country}, ${to}, ${now})),
      scope as (select ${since(number.country)} as country_since, ${since(ACCOUNT_SCOPE)} as account_since,
        (select coalesce(sum(baseline_hourly), 0)::float8 from sms_guard_prefixes where account_id = ${accountId} and country = ${number.country} and prefix like '+%') as country_baseline,
        (select coalesce(sum(baseline_hourly), 0)::float8 from sms_guard_prefixes where account_id = ${accountId} and prefix like '+%') as account_baseline)
      select r.last_hour, r.judged, r.answered, co.n as country_open, cj.judged as country_judged, cj.answered as country_answered, scope.country_baseline,
        ao.n as account_open, aj.judged as account_judged, aj.answered as account_answered, scope.account_baseline
      from scope,
      lateral (select (select count(*)::int from (select 1 from sms_guard_sends where account_id = ${accountId} and prefix = ${number.prefix} and ts > ${counting.since} limit ${counting.threshold + 1}) x) as last_hour,
          count(*)::int as judged, (count(*) filter (where answered))::int as answered
        from (select answered from sms_guard_sends where account_id = ${accountId} and prefix = ${number.prefix} and ts > ${counting.since} and ts <= ${counting.graceCutoff}
              order by ts desc limit ${rules.conversionWindow}) y) r,
      lateral (select count(*)::int as n from (select 1 from sms_guard_sends where account_id = ${accountId} and country = ${number.country} and not answered and ts > scope.country_since limit ${SPREAD_SCAN}) z) co,
      lateral (select count(*)::int as judged, (count(*) filter (where answered))::int as answered from (select answered from sms_guard_sends
          where account_id = ${accountId} and country = ${number.country} and ts > scope.country_since and ts <= ${judgedBy} order by ts desc limit ${SPREAD_RULES.judgedWindow}) w) cj,
      lateral (select count(*)::int as n from (select 1 from sms_guard_sends where account_id = ${accountId} and not answered and ts > scope.account_since limit ${SPREAD_SCAN}) z) ao,
      lateral (select count(*)::int as judged, (count(*) filter (where answered))::int as answered from (select answered from sms_guard_sends
          where account_id = ${accountId} and ts > scope.account_since and ts <= ${judgedBy} order by ts desc limit ${SPREAD_RULES.judgedWindow}) w) aj`;
}

/** Which rule a send trips: what to hold (a range, a country, the account) and why; null when it may go. */
export type Trip = { scope: 'range' | 'country' | 'account'; reason: string };

/** Why the send trips a pumping rule, or null when it may go. */
export function verdictOf(counts: Counts, counting: Counting, rules: SmsGuardRules): Trip | null {
  // the insert of countSend is not visible to its counts: this send is the +1
  if (counts.last_hour + 1 > counting.threshold) {
    return {
      scope: 'range',
      reason: `${counts.last_hour + 1} SMS in the last hour, above ${rules.volumeMultiplier} × the usual ${counting.baseline.toFixed(1)} an hour + ${rules.volumeAllowance}`,
    };
  }
  if (counts.judged >= rules.conversionWindow && counts.answered * 100 < rules.conversionMinPercent * counts.judged) {
    return {
      scope: 'range',
      reason: `only ${counts.answered} of the last ${counts.judged} SMS were answered (fewer than ${rules.conversionMinPercent}%)`,
    };
  }
  const spread = (
    open: number,
    judged: number,
    answered: number,
    baseline: number,
    allowance: number,
    where: string,
  ): string | null => {
    const threshold = Math.floor(allowance + rules.volumeMultiplier * Number(baseline));
    if (open + 1 <= threshold) return null;
    // people are answering: a busy day, not pumping
    if (judged >= SPREAD_RULES.minJudged && answered * 100 >= SPREAD_RULES.minPercent * judged) return null;
    const shown =
      judged >= SPREAD_RULES.minJudged ? `only ${answered} of the last ${judged} answered` : `none of them answered yet`;
    return `${open + 1} unanswered SMS to ${where} in the last hour, above ${allowance} + ${rules.volumeMultiplier} × the usual ${Number(baseline).toFixed(1)} an hour, ${shown}`;
  };
  const country = spread(
    counts.country_open,
    counts.country_judged,
    counts.country_answered,
    counts.country_baseline,
    SPREAD_RULES.countryAllowance,
    'the country',
  );
  if (country) return { scope: 'country', reason: country };
  const account = spread(
    counts.account_open,
    counts.account_judged,
    counts.account_answered,
    counts.account_baseline,
    SPREAD_RULES.accountAllowance,
    'all countries',
  );
  if (account) return { scope: 'account', reason: account };
  return null;
}

/**
 * Holds the range: audit entry, admin notification, Watch Tower flag. `undoSend` removes the send
 * `countSend` recorded in this transaction (the held send was not made, so it does not count).
 * A range another send has held meanwhile keeps that hold, and its entry and notice.
 */
export async function holdRange(
  trx: Trx,
  accountId: string,
  number: NumberClass,
  reason: string,
  rules: SmsGuardRules,
  now: Date,
  undoSend: string | null,
  scope: Trip['scope'] = 'range',
): Promise<Date> {
  const heldUntil = new Date(now.getTime() + rules.holdMinutes * 60_000);
  const key = holdKey(number, scope);
  if (undoSend) {
    await sql`delete from sms_guard_sends where id = (select id from sms_guard_sends where account_id = ${accountId} and prefix = ${number.prefix} and phone_number = ${undoSend} and ts = ${now} limit 1)`.execute(
      trx,
    );
  }
  const held = (
    await sql<{
      held_until: Date;
    }>`insert into sms_guard_prefixes as p (account_id, prefix, country, held_at, held_until, hold_reason)
      values (${accountId}, ${key}, ${number.country}, ${now}, ${heldUntil}, ${reason})
      on conflict (account_id, prefix) do update set held_at = excluded.held_at, held_until = excluded.held_until, hold_reason = excluded.hold_reason
        where p.held_until is null or p.held_until <= ${now}
      returning held_until`.execute(trx)
  ).rows[0];
  if (!held) {
    const current = (
      await sql<{
        held_until: Date;
      }>`select held_until from sms_guard_prefixes where account_id = ${accountId} and prefix = ${key}`.execute(trx)
    ).rows[0];
    return current ? new Date(current.held_until) : heldUntil;
  }
  const where = scope === 'range' ? `numbers starting ${number.prefix} (${nameOfCountry(number.country)})` : describeScope(key);
  await audit(trx, accountId, null, {
    namespace: 'global',
    description: `SMS to ${where} held until ${(await accountDates(trx, accountId)).moment(heldUntil)}: suspected SMS pumping, ${reason}`,
    event: 'sms.pumping-held',
    at: now,
  });
  await notify(trx, accountId, {
    kind: 'sms.pumping-held',
    title:
      scope === 'range'
        ? `SMS to ${number.prefix}… are held: suspected SMS pumping`
        : `SMS to ${describeScope(key)} are held: suspected SMS pumping`,
    body: `Sends to ${where} were stopped because ${reason}. Release them under Settings > SMS Configuration if the traffic is yours.`,
    link: '/settings/sms-configuration',
    dedupeKey: `sms.pumping-held:${key}:${now.toISOString()}`,
  });
  return heldUntil;
}

/** The sms_guard_prefixes key a hold of this scope is kept under. */
export function holdKey(number: NumberClass, scope: Trip['scope']): string {
  return scope === 'range' ? number.prefix : scope === 'country' ? number.country : ACCOUNT_SCOPE;
}

/** A customer answered an SMS (completed a task, verified a code): its sends reached a person. */
export async function markSmsAnswered(trx: Trx, accountId: string, phones: readonly string[]): Promise<void> {
  if (!phones.length) return;
  await sql`update sms_guard_sends set answered = true where account_id = ${accountId} and phone_number = any(${[...new Set(phones)]}::text[]) and not answered`.execute(
    trx,
  );
}

export async function activeHolds(trx: Trx, accountId: string, now: Date): Promise<SmsHold[]> {
  const rows = await sql<{ prefix: string; country: string; held_at: Date; held_until: Date; hold_reason: string }>`
    select prefix, country, held_at, held_until, hold_reason from sms_guard_prefixes
    where account_id = ${accountId} and held_until > ${now} order by held_at desc`.execute(trx);
  return rows.rows.map((r) => ({
    prefix: r.prefix,
    country: r.country,
    heldAt: new Date(r.held_at).toISOString(),
    heldUntil: new Date(r.held_until).toISOString(),
    reason: r.hold_reason,
  }));
}

export async function smsGuardOf(trx: Trx, accountId: string, now: Date): Promise<SmsGuard> {
  const state = await smsAccountState(trx, accountId, null, now);
  return {
    allowedCountries: state.allowedCountries,
    isDefault: state.isDefault,
    rules: state.rules,
    pumpingGuard: state.pumpingGuard,
    holds: await activeHolds(trx, accountId, now),
    countries: knownCountries(),
  };
}

export async function saveSmsGuard(
  trx: Trx,
  accountId: string,
  actor: Actor,
  body: { allowedCountries: string[]; rules?: SmsGuardRules; pumpingGuard?: boolean },
  now: Date,
): Promise<SmsGuard> {
  const known = new Set(knownCountries().map((c) => c.code));
  const unknown = body.allowedCountries.find((c) => !known.has(c));
  if (unknown)
    throw new ApiError(400, 'VALIDATION_FAILED', `allowedCountries: ${unknown} is not a country SMS can be sent to`, {
      allowedCountries: `${unknown} is not a country SMS can be sent to`,
    });
  const before = await smsAccountState(trx, accountId, null, now);
  const countries = [...new Set(body.allowedCountries)].sort();
  const rules = body.rules ?? before.rules;
  const pumping = body.pumpingGuard ?? before.pumpingGuardSet;
  await sql`insert into sms_guard_settings as g (account_id, allowed_countries, pumping_guard, volume_multiplier, volume_allowance, baseline_days, conversion_window, conversion_min_percent, conversion_grace_seconds, hold_minutes, updated_at)
    values (${accountId}, ${countries}, ${pumping}, ${rules.volumeMultiplier}, ${rules.volumeAllowance}, ${rules.baselineDays}, ${rules.conversionWindow}, ${rules.conversionMinPercent}, ${rules.conversionGraceSeconds}, ${rules.holdMinutes}, ${now})
    on conflict (account_id) do update set allowed_countries = excluded.allowed_countries, pumping_guard = excluded.pumping_guard, volume_multiplier = excluded.volume_multiplier, volume_allowance = excluded.volume_allowance,
      baseline_days = excluded.baseline_days, conversion_window = excluded.conversion_window, conversion_min_percent = excluded.conversion_min_percent,
      conversion_grace_seconds = excluded.conversion_grace_seconds, hold_minutes = excluded.hold_minutes, updated_at = excluded.updated_at`.execute(
    trx,
  );
  const added = countries.filter((c) => !before.allowedCountries.includes(c));
  const removed = before.allowedCountries.filter((c) => !countries.includes(c));
  const changes = [
    added.length ? `allowed ${added.map(nameOfCountry).join(', ')}` : '',
    removed.length ? `no longer allowed ${removed.map(nameOfCountry).join(', ')}` : '',
    JSON.stringify(rules) !== JSON.stringify(before.rules) ? `pumping rules ${ruleText(rules)}` : '',
    body.pumpingGuard !== undefined && body.pumpingGuard !== before.pumpingGuard
      ? `pumping guard ${body.pumpingGuard ? 'on' : 'off'}`
      : '',
  ].filter(Boolean);
  await audit(trx, accountId, actor, {
    namespace: 'global',
    description: `Updated the SMS fraud guard: ${changes.join('; ') || 'no change'}`,
    event: 'sms.guard-updated',
    at: now,
  });
  return smsGuardOf(trx, accountId, now);
}

function ruleText(r: SmsGuardRules): string {
  return `(hold above ${r.volumeMultiplier} × baseline over ${r.baselineDays} days + ${r.volumeAllowance} an hour, or under ${r.conversionMinPercent}% of the last ${r.conversionWindow} answered within ${r.conversionGraceSeconds} s; holds last ${r.holdMinutes} min)`;
}

/** An admin lets a held range send again (audited); its counts start afresh. */
export async function releaseHold(trx: Trx, accountId: string, actor: Actor, prefix: string, now: Date): Promise<SmsGuard> {
  const released = await sql<{ country: string }>`update sms_guard_prefixes set held_until = null, released_at = ${now}
    where account_id = ${accountId} and prefix = ${prefix} and held_until > ${now} returning country`.execute(trx);
  const row = released.rows[0];
  if (!row) throw new ApiError(404, 'HOLD_NOT_FOUND', `SMS to ${describeScope(prefix)} are not held.`);
  await audit(trx, accountId, actor, {
    namespace: 'global',
    description: `Released the hold on SMS to numbers starting ${prefix} (${nameOfCountry(row.country)})`,
    event: 'sms.pumping-released',
    at: now,
  });
  return smsGuardOf(trx, accountId, now);
}

/** Watch Tower: accounts with held ranges now, and how many. */
export async function heldRangesByAccount(trx: Trx, accountIds: readonly string[], now: Date): Promise<Map<string, number>> {
  if (!accountIds.length) return new Map();
  const rows = await sql<{ account_id: string; n: number }>`select account_id, count(*)::int as n from sms_guard_prefixes
    where held_until > ${now} and account_id = any(${[...accountIds]}::uuid[]) group by account_id`.execute(trx);
  return new Map(rows.rows.map((r) => [r.account_id, r.n]));
}
