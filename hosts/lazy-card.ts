import { lazy } from 'react';

/**
 * The 'not yet authorized' card, loaded only when a host's sign-in answers 'unauthorized': most
 * people never see it, so the embedded entries do not carry it in their first load.
 */
export const LazyUnauthorizedCard = lazy(() => import('./UnauthorizedCard').then((m) => ({ default: m.UnauthorizedCard })));
