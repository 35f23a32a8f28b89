import type { Trx } from '../index';

// The shape every migration has, apart from the list of them, so a migration written in code can
// name its context without importing the list that imports it.

/** What a migration written in code may need from the server's configuration. */
export type MigrationContext = { encryptionKey?: string };

/** SQL, and optionally a step in code (run in the system scope) for what SQL cannot do. */
export type Migration = { id: string; sql: string; run?: (trx: Trx, context: MigrationContext) => Promise<void> };
