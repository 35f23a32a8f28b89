import type { Job } from '../../jobs/runner';
import { expireDueRequests, sealSignedRequests } from './service';

// Signing seals right away in the background; this job is what makes sealing durable (a
// restart or a failed attempt is picked up here) and expires requests nobody signed in time.
export const SIG_JOBS: Job[] = [
  {
    name: 'document-signature.seal-and-expire',
    intervalSeconds: 30,
    async run(deps) {
      await sealSignedRequests(deps);
      await expireDueRequests(deps);
    },
  },
  // retention of completed documents runs in the one redaction job, privacy.retention (api/privacy/jobs.ts)
];
