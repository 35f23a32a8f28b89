import type { Job } from '../jobs/runner';
import { EXPORT_JOB, runOpenExports, runOpenPrivacyRequests } from './service';
import { runRetention } from './retention';

/** Erasures a process or a database cut left halfway, carried on (every minute); exports made. */
export const PRIVACY_JOBS: Job[] = [
  { name: 'privacy.requests', intervalSeconds: 60, run: async (deps) => void (await runOpenPrivacyRequests(deps)) },
  // an export request is answered at once; this makes its ZIP (asked to run at the next poll when one comes in)
  { name: EXPORT_JOB, intervalSeconds: 60, run: async (deps) => void (await runOpenExports(deps)) },
  // the one redaction job for every kind of caller data (it replaced document-signature.retention and idv.redact-sessions)
  { name: 'privacy.retention', intervalSeconds: 3600, run: async (deps) => void (await runRetention(deps)) },
];
