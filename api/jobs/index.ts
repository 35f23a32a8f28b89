import { BILLING_JOBS } from '../billing/jobs';
import { IDV_JOBS } from '../apps/identity-verification/jobs';
import { SIG_JOBS } from '../apps/document-signature/jobs';
import { LIVE_JOBS } from '../live/jobs';
import { PRIVACY_JOBS } from '../privacy/jobs';
import type { Job } from './runner';

/** Every periodic job the server runs; add an area's jobs here (retention, ...). */
export const JOBS: Job[] = [...BILLING_JOBS, ...IDV_JOBS, ...SIG_JOBS, ...LIVE_JOBS, ...PRIVACY_JOBS];
