import { sql } from 'kysely';
import type { Job } from '../jobs/runner';

/** How far back a reconnecting tab is replayed; older changes answer `reset` (reload what it shows). */
export const LIVE_REPLAY_MINUTES = 10;

/** Deletes live events older than the replay window (they only ever serve a reconnecting tab). */
export async function pruneLiveEvents(deps: Parameters<Job['run']>[0], now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - LIVE_REPLAY_MINUTES * 60_000);
  const deleted = await deps.db.system((trx) => sql`delete from live_events where created_at < ${cutoff}`.execute(trx));
  return Number(deleted.numAffectedRows ?? 0);
}

export const LIVE_JOBS: Job[] = [
  { name: 'live.prune', intervalSeconds: 60, run: async (deps, now) => void (await pruneLiveEvents(deps, now)) },
];
