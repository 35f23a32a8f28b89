// Forward-only migrations, applied in this order. Ranges keep areas apart:
// 0001-0099 foundation, 0100 identity, 0200 account settings, 0300 integrations,
// 0400 embedded hosts, 0500 watch tower and results, 0600 hardening and sessions,
// 0700 apps platform, 0800 billing, 0900+ the apps (0910 passkeys, 0920 idv, 0930 signature,
// 0940 eform, 0950 payments), then 0960 watch tower search, 1050 the SMS fraud guard,
// 1051 per-account /api/v1 rate limits, 1090 the signer's language, 1091 small signature page
// images, 1095 who ran each periodic job last, 1110 archived eForm forms, 1112 the account's
// time zone, 1200 the SMS guard's spread rules (per country and account), 1250 the eForm
// answers' trigram index, 1270 PAdES B-LTA seals, 1300 a caller's data on request (erasure,
// export, legal holds), 1301 retention for every kind, 1302 masked numbers for new webhook and
// log destinations, 1310 the retention walk's keyset indexes, 1400 journeys, 1410 where an IDV
// step of a journey returns to, 1500 a job run's trace links to the requests that asked for it.
import * as m0001 from './0001_foundation';
import * as m0100 from './0100_identity';
import * as m0200 from './0200_developer_keys';
import * as m0201 from './0201_domain_ownership';
import * as m0300 from './0300_integrations';
import * as m0500 from './0500_results_notifications';
import * as m0600 from './0600_sessions';
import * as m0620 from './0620_proof_and_invitation_outcomes';
import * as m0621 from './0621_clear_stored_errors';
import * as m0640 from './0640_developer_keys_with_account';
import * as m0650 from './0650_result_totals';
import * as m0700 from './0700_credit_ledger';
import * as m0701 from './0701_apps_platform';
import * as m0710 from './0710_task_list_indexes';
import * as m0800 from './0800_billing';
import * as m0900 from './0900_storage';
import * as m0910 from './0910_passkeys';
import * as m0920 from './0920_identity_verification';
import * as m0930 from './0930_document_signature';
import * as m0931 from './0931_signature_retention';
import * as m0940 from './0940_e_form';
import * as m0950 from './0950_payments';
import * as m0960 from './0960_watch_tower_search';
import * as m1010 from './1010_eform_pattern_warnings';
import * as m1011 from './1011_credit_reservations';
import * as m1012 from './1012_payment_refunds_in_flight';
import * as m1030 from './1030_live_events';
import * as m1040 from './1040_customer_languages';
import * as m1050 from './1050_sms_guard';
import * as m1051 from './1051_api_rate_limits';
import * as m1060 from './1060_pades';
import * as m1070 from './1070_signature_removed_content';
import * as m1090 from './1090_signer_language';
import * as m1091 from './1091_signature_page_images_small';
import * as m1095 from './1095_jobs_last_run_by';
import * as m1100 from './1100_credit_ledger_account_removal';
import * as m1110 from './1110_eform_archive';
import * as m1112 from './1112_account_time_zone';
import * as m1200 from './1200_sms_guard_spread';
import * as m1250 from './1250_eform_answers_trigram';
import * as m1270 from './1270_seal_level_lta';
import * as m1300 from './1300_privacy';
import * as m1301 from './1301_retention_rules';
import * as m1302 from './1302_masked_numbers';
import * as m1310 from './1310_retention_walk';
import * as m1400 from './1400_journeys';
import * as m1410 from './1410_idv_return_url';
import * as m1500 from './1500_job_trace_links';

import type { Migration } from './types';
export type { Migration, MigrationContext } from './types';

export const MIGRATIONS: Migration[] = [
  m0001,
  m0100,
  m0200,
  m0201,
  m0300,
  m0500,
  m0600,
  m0620,
  m0621,
  m0640,
  m0650,
  m0700,
  m0701,
  m0710,
  m0800,
  m0900,
  m0910,
  m0920,
  m0930,
  m0931,
  m0940,
  m0950,
  m0960,
  m1010,
  m1011,
  m1012,
  m1030,
  m1040,
  m1050,
  m1051,
  m1060,
  m1070,
  m1090,
  m1091,
  m1095,
  m1100,
  m1110,
  m1112,
  m1200,
  m1250,
  m1270,
  m1300,
  m1301,
  m1302,
  m1310,
  m1400,
  m1410,
  m1500,
];
