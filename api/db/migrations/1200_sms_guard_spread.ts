// The SMS guard's spread rules (docs/sms-guard.md#pumping-spread-over-ranges): sends are counted
// per country and per account as well as per range, so each send names its country. Holds of a
// whole country (prefix = its ISO code) and of the whole account (prefix = 'all') live in
// sms_guard_prefixes beside the ranges' own.
export const id = '1200_sms_guard_spread';

export const sql = `
alter table sms_guard_sends add column country text;
update sms_guard_sends s set country = p.country from sms_guard_prefixes p where p.account_id = s.account_id and p.prefix = s.prefix;
create index sms_guard_sends_by_country on sms_guard_sends (account_id, country, ts desc);
create index sms_guard_sends_country_open on sms_guard_sends (account_id, country, ts desc) where not answered;
create index sms_guard_sends_by_account on sms_guard_sends (account_id, ts desc);
create index sms_guard_sends_account_open on sms_guard_sends (account_id, ts desc) where not answered;
`;
