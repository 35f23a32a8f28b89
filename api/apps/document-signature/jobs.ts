import type { Job } from '../../jobs/runner';
import { expireDueRequests, sealSignedRequests } from './service';
import { deleteExpiredSignedFiles } from './retention';

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
  { name: 'document-signature.retention', intervalSeconds: 3600, run: async (deps) => void (await deleteExpiredSignedFiles(deps)) },
];
