import { BILLING_JOBS } from '../billing/jobs';
import type { Job } from './runner';

/** Every periodic job the server runs; add an area's jobs here (retention, ...). */
export const JOBS: Job[] = [...BILLING_JOBS];
