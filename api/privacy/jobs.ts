import type { Job } from '../jobs/runner';
import { runOpenPrivacyRequests } from './service';
import { runRetention } from './retention';

/** Erasure and export requests a process or a database cut left halfway, carried on (every minute). */
export const PRIVACY_JOBS: Job[] = [
  { name: 'privacy.requests', intervalSeconds: 60, run: async (deps) => void (await runOpenPrivacyRequests(deps)) },
  // the one redaction job for every kind of caller data (it replaced document-signature.retention and idv.redact-sessions)
  { name: 'privacy.retention', intervalSeconds: 3600, run: async (deps) => void (await runRetention(deps)) },
];
