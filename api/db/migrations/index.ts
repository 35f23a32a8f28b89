// Forward-only migrations, applied in this order. Ranges keep areas apart:
// 0001-0099 foundation, 0100 identity, 0200 account settings, 0300 integrations,
// 0400 embedded hosts, 0500 watch tower and results.
import * as m0001 from './0001_foundation';
import * as m0300 from './0300_integrations';

export type Migration = { id: string; sql: string };

export const MIGRATIONS: Migration[] = [m0001, m0300];
