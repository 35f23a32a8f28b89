// Forward-only migrations, applied in this order. Ranges keep areas apart:
// 0001-0099 foundation, 0100 identity, 0200 account settings, 0300 integrations,
// 0400 embedded hosts, 0500 watch tower and results, 0600 hardening and sessions,
// 0700 apps platform, 0800 billing, 0900+ the apps (0910 passkeys, 0920 idv, 0930 signature,
// 0940 eform, 0950 payments).
import * as m0001 from './0001_foundation';
import * as m0100 from './0100_identity';
import * as m0200 from './0200_developer_keys';
import * as m0201 from './0201_domain_ownership';
import * as m0300 from './0300_integrations';
import * as m0500 from './0500_results_notifications';
import * as m0600 from './0600_sessions';
import * as m0700 from './0700_credit_ledger';

export type Migration = { id: string; sql: string };

export const MIGRATIONS: Migration[] = [m0001, m0100, m0200, m0201, m0300, m0500, m0600, m0700];
