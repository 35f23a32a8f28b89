import type { ColumnType } from 'kysely';

/** A timestamp column: read as a Date, written as a Date or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** Set by the database when the row is made, never changed. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A json column: read as its value, written as JSON text. */
export type Json<T = Record<string, unknown>> = ColumnType<T, string, string>;
