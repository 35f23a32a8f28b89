import { sql } from 'kysely';
import type { Trx } from '../db/index';
import { RETENTION_GRACE_DAYS } from '../contract/privacy';

// The 30-day grace of a retention rule, in one place for the Customer data card and the Storage
// settings page (which sets the Identity Verification and Document Signature kinds too): a kind
// that was kept, or a shorter period than before, runs first 30 days later, so enabling a rule
// never redacts existing data by surprise; meanwhile the card shows the dry run.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether going from `before` days to `after` days redacts more than before (null keeps). */
export const stricter = (before: number | null, after: number | null) => after != null && (before == null || after < before);

/**
 * Records a kind's new days with its first run: 30 days on when the change is stricter, else the
 * run it had (`keptStartsAt`, with who confirmed it). Answers the first run.
 */
export async function recordRule(
  trx: Trx,
  accountId: string,
  kind: string,
  change: { before: number | null; after: number | null; keptStartsAt: Date; keptConfirmedBy: string | null },
  now: Date,
): Promise<Date> {
  const tighter = stricter(change.before, change.after);
  const startsAt = tighter ? new Date(now.getTime() + RETENTION_GRACE_DAYS * DAY_MS) : change.keptStartsAt;
  await sql`insert into retention_rules (account_id, kind, days, starts_at, confirmed_by, updated_at) values (${accountId}, ${kind}, ${change.after}, ${startsAt}, ${tighter ? null : change.keptConfirmedBy}, ${now})
    on conflict (account_id, kind) do update set days = excluded.days, starts_at = excluded.starts_at, confirmed_by = excluded.confirmed_by, updated_at = excluded.updated_at`.execute(
    trx,
  );
  return startsAt;
}

/** The stored first run of each kind the account has a rule row for. */
export async function storedStarts(
  trx: Trx,
  accountId: string,
): Promise<Map<string, { startsAt: Date; confirmedBy: string | null }>> {
  const rows = (
    await sql<{
      kind: string;
      starts_at: Date;
      confirmed_by: string | null;
    }>`select kind, starts_at, confirmed_by from retention_rules where account_id = ${accountId}`.execute(trx)
  ).rows;
  return new Map(rows.map((r) => [r.kind, { startsAt: new Date(r.starts_at), confirmedBy: r.confirmed_by }]));
}

/**
 * A Storage settings save: each Identity Verification or Document Signature kind made stricter
 * starts 30 days later. A kind with no rule row was in force before the grace came (as before
 * this upgrade) and stays so until it is tightened.
 */
export async function storageRetentionChanged(
  trx: Trx,
  accountId: string,
  before: Record<string, number | null>,
  after: Record<string, number | null>,
  now: Date,
): Promise<void> {
  const starts = await storedStarts(trx, accountId);
  for (const kind of Object.keys(after)) {
    const b = before[kind] ?? null;
    const a = after[kind] ?? null;
    if (b === a) continue;
    const kept = starts.get(kind);
    await recordRule(
      trx,
      accountId,
      kind,
      { before: b, after: a, keptStartsAt: kept?.startsAt ?? new Date(0), keptConfirmedBy: kept?.confirmedBy ?? null },
      now,
    );
  }
}
