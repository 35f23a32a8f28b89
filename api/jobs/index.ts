import { BILLING_JOBS } from '../billing/jobs';
import { SIG_JOBS } from '../apps/document-signature/jobs';
import type { Job } from './runner';

/** Every periodic job the server runs; add an area's jobs here (retention, ...). */
export const JOBS: Job[] = [...BILLING_JOBS, ...SIG_JOBS];
