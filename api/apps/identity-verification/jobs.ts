import type { Job } from '../../jobs/runner';
import { expireDueSessions } from './service';

// Identity Verification's background work, leased through the jobs table like every periodic job.
export const IDV_JOBS: Job[] = [
  { name: 'idv.expire-sessions', intervalSeconds: 60, run: async (deps) => void (await expireDueSessions(deps)) },
  // redaction by retention runs in the one redaction job, privacy.retention (api/privacy/jobs.ts)
];
