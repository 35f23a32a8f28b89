import type { Job } from '../../jobs/runner';
import { expireDueSessions, redactDueSessions } from './service';

// Identity Verification's background work, leased through the jobs table like every periodic job.
export const IDV_JOBS: Job[] = [
  { name: 'idv.expire-sessions', intervalSeconds: 60, run: async (deps) => void (await expireDueSessions(deps)) },
  { name: 'idv.redact-sessions', intervalSeconds: 3600, run: async (deps) => void (await redactDueSessions(deps)) },
];
