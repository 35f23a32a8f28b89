import { sql as q } from 'kysely';
import type { Trx } from '../index';
import metadata from 'libphonenumber-js/metadata.max.json';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { tenantPolicy } from './policy';

// The SMS fraud guard: the countries each account may text, the pumping rules' settings, and the
// state the rules count with (sends per number range, whether each was answered, holds). In the
// database so every API process sees the same counts and holds.
export const id = '1050_sms_guard';

export const sql = `
create table sms_guard_settings (
  account_id uuid primary key references accounts(id) on delete cascade,
  -- null: the default, the country of the account's sender number
  allowed_countries text[],
  -- null: the default, on with Twilio and off with the development outbox (nothing is paid there)
  pumping_guard boolean,
  volume_multiplier real not null default 5,
  volume_allowance integer not null default 20,
  baseline_days integer not null default 7,
  conversion_window integer not null default 30,
  conversion_min_percent integer not null default 10,
  conversion_grace_seconds integer not null default 300,
  hold_minutes integer not null default 60,
  updated_at timestamptz not null default now()
);
${tenantPolicy('sms_guard_settings')}

-- one row per account and number range: the lock that serialises its sends while they are
-- counted, the hold, and the hourly baseline (recomputed at most once an hour)
create table sms_guard_prefixes (
  account_id uuid not null references accounts(id) on delete cascade,
  prefix text not null,
  country text not null,
  held_at timestamptz,
  held_until timestamptz,
  hold_reason text,
  released_at timestamptz,
  baseline_hourly real not null default 0,
  baseline_at timestamptz,
  primary key (account_id, prefix)
);
create index sms_guard_prefixes_held on sms_guard_prefixes (held_until) where held_until is not null;
${tenantPolicy('sms_guard_prefixes')}

create table sms_guard_sends (
  id bigint generated always as identity primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  prefix text not null,
  phone_number text not null,
  ts timestamptz not null,
  -- the customer answered (checked a code, completed a task): the send reached a person
  answered boolean not null default false
);
create index sms_guard_sends_by_prefix on sms_guard_sends (account_id, prefix, ts desc);
create index sms_guard_sends_unanswered on sms_guard_sends (account_id, phone_number, ts desc) where not answered;
${tenantPolicy('sms_guard_sends')}
`;

const SENT_TO = [
  'dev_sms_outbox:to_number:created_at',
  'otp_sends:phone_number:ts',
  'passkey_tasks:phone_number:created_at',
  'idv_sessions:phone_number:created_at',
  'sig_requests:phone_number:created_at',
  'eform_requests:phone_number:created_at',
  'payments:phone_number:created_at',
];

/**
 * The country of a number, as api/sms-guard/classify.ts's classifyNumber found it when this
 * migration shipped. A deliberate duplicate: a migration is frozen when it ships, so it keeps its
 * own copy instead of importing the guard, whose classifier may change (migrations import no
 * domain code: test/unit/import-graph.test.ts). A number the metadata gives no country takes the
 * main country of its calling code (listed first: US for 1, RU for 7, GB for 44).
 */
function countryOf(e164: string): string | undefined {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return undefined;
  return (
    parsed.country ??
    (metadata as { country_calling_codes: Record<string, string[]> }).country_calling_codes[parsed.countryCallingCode]?.[0]
  );
}

/**
 * Accounts that exist when the guard ships keep every country they texted in the last 90 days
 * (and their sender number's), so nothing that worked yesterday is refused today. The leading
 * digits decide the country, so one number per eight-character range is classified.
 */
export async function run(trx: Trx): Promise<void> {
  // our own clock's ISO text, not input: safe to write into the statement
  const since = `'${new Date(Date.now() - 90 * 86_400_000).toISOString()}'::timestamptz`;
  const unions = SENT_TO.map((s) => {
    const [table, column, ts] = s.split(':');
    return `select account_id, min(${column}) as phone, false as sender from ${table} where ${ts} > ${since} group by account_id, left(${column}, 8)`;
  });
  unions.push(`select account_id, phone_number as phone, true as sender from sms_settings where phone_number <> ''`);
  const rows = (
    await q<{
      account_id: string;
      phone: string;
      sender: boolean;
    }>`${q.raw(`select account_id, phone, sender from (${unions.join(' union ')}) t`)}`.execute(trx)
  ).rows;
  const countries = new Map<string, Set<string>>();
  for (const r of rows) {
    const country = countryOf(r.phone);
    if (!country) continue;
    countries.set(r.account_id, (countries.get(r.account_id) ?? new Set()).add(country));
  }
  for (const [accountId, set] of countries) {
    // only accounts that texted somewhere: the others keep the default
    if (!rows.some((r) => r.account_id === accountId && !r.sender)) continue;
    await q`insert into sms_guard_settings (account_id, allowed_countries) values (${accountId}, ${[...set].sort()}) on conflict (account_id) do nothing`.execute(
      trx,
    );
  }
}
