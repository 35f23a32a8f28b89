import type { Job } from '../jobs/runner';
import { runOpenPrivacyRequests } from './service';

/** Erasure and export requests a process or a database cut left halfway, carried on (every minute). */
export const PRIVACY_JOBS: Job[] = [{ name: 'privacy.requests', intervalSeconds: 60, run: async (deps) => void (await runOpenPrivacyRequests(deps)) }];
