import { lazy } from 'react';

// Every page loads on demand, so the first load carries only the shell.
export const SignInPage = lazy(() => import('../pages/sign-in'));
export const SignUpPage = lazy(() => import('../pages/sign-up'));
export const SsoCallbackPage = lazy(() => import('../pages/sso-callback'));
export const HomePage = lazy(() => import('../pages/home'));
export const LegalDpaPage = lazy(() => import('../pages/legal'));
export const SupportPage = lazy(() => import('../pages/support'));
export const TicketPage = lazy(() => import('../pages/support/ticket'));
export const SalesPage = lazy(() => import('../pages/sales'));
export const ResourcesPage = lazy(() => import('../pages/resources'));
export const SettingsArea = lazy(() => import('../pages/settings'));
export const WatchTowerArea = lazy(() => import('../pages/watch-tower'));
export const AppArea = lazy(() => import('../pages/apps'));
export const NotFoundPage = lazy(() => import('../pages/not-found'));
export const JourneysArea = lazy(() => import('../pages/journeys'));
export const DevSmsOutboxPage = lazy(() => import('../pages/dev-sms-outbox'));
export const SearchDialog = lazy(() => import('../pages/search'));
