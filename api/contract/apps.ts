// The app registry: one list used by the API (valid app ids) and the UI (cards, tabs, routes).
// An app's id is its route segment, so `{app}` in every call is that id.

export const APP_IDS = [
  'passkeys',
  'document-signature',
  'e-form',
  'one-time-passcode',
  'payments',
  'identity-verification',
] as const;
export type AppId = (typeof APP_IDS)[number];

export type AppTab = {
  label: string;
  /** path below the app's root; '' is the dashboard */
  path: string;
  /** hidden from roles below admin (supervisors) */
  adminOnly?: boolean;
};

export type AppDefinition = {
  id: AppId;
  title: string;
  description: string;
  color: string;
  released: boolean;
  tabs: AppTab[];
  /** every route below the app's root ('' is the root), wouter patterns */
  routes: string[];
  /** false for apps without pricing and billing routes */
  billable: boolean;
};

const common = ['', 'pricing', 'settings/general', 'settings/sms-content', 'settings/webhooks', 'settings/billing'];
const configuration: AppTab = { label: 'Configuration', path: 'settings/general', adminOnly: true };

export const APPS: readonly AppDefinition[] = [
  {
    id: 'passkeys',
    title: 'Passkeys',
    description: 'Let customers prove who they are with a passkey instead of security questions.',
    color: '#2563EB',
    released: true,
    billable: true,
    tabs: [
      { label: 'Dashboard', path: '' },
      { label: 'Activity', path: 'activity' },
      { label: 'Enrollments', path: 'enrollments' },
      configuration,
    ],
    routes: [...common, 'activity', 'enrollments'],
  },
  {
    id: 'document-signature',
    title: 'Document Signature',
    description: 'Send documents for a legally binding signature during the call.',
    color: '#7C3AED',
    released: true,
    billable: true,
    tabs: [
      { label: 'Dashboard', path: '' },
      { label: 'Signatures', path: 'signatures' },
      { label: 'Documents', path: 'documents', adminOnly: true },
      configuration,
    ],
    routes: [
      ...common,
      'signatures',
      'documents',
      'documents/new',
      'documents/:id/history',
      'documents/:id/:version',
      'settings/storage',
      'settings/signing',
    ],
  },
  {
    id: 'e-form',
    title: 'eForm',
    description: 'Collect structured information from customers with secure forms.',
    color: '#0891B2',
    released: true,
    billable: true,
    tabs: [
      { label: 'Dashboard', path: '' },
      { label: 'Submissions', path: 'submissions' },
      { label: 'Forms', path: 'forms', adminOnly: true },
      configuration,
    ],
    routes: [...common, 'submissions', 'forms', 'forms/new', 'forms/:id'],
  },
  {
    id: 'one-time-passcode',
    title: 'One-Time Passcode',
    description: 'Verify callers with a passcode sent to their phone.',
    color: '#059669',
    released: true,
    billable: true,
    tabs: [{ label: 'Dashboard', path: '' }, { label: 'Authentications', path: 'authentications' }, configuration],
    routes: [...common, 'authentications'],
  },
  {
    id: 'payments',
    title: 'Payments',
    description: 'Take card payments securely without the agent hearing card details.',
    color: '#D97706',
    released: true,
    billable: true,
    tabs: [
      { label: 'Dashboard', path: '' },
      { label: 'Payments', path: 'payments' },
      { label: 'Product Catalog', path: 'products' },
      configuration,
    ],
    routes: [...common, 'payments', 'products', 'settings/stripe', 'settings/stripe/callback'],
  },
  {
    id: 'identity-verification',
    title: 'Identity Verification',
    description: 'Check a government ID and a selfie before sensitive changes.',
    color: '#DB2777',
    released: false,
    billable: false,
    tabs: [{ label: 'Dashboard', path: '' }, { label: 'Verifications', path: 'verifications' }, configuration],
    routes: [
      '',
      'dashboard',
      // the review queue is a view of Verifications (?view=needs-review), not a route: SPEC §2
      'verifications',
      'settings/general',
      'settings/storage',
      'settings/sms-content',
      'settings/webhooks',
    ],
  },
];

export function getApp(id: string): AppDefinition | undefined {
  return APPS.find((a) => a.id === id);
}

export function isAppId(id: string): id is AppId {
  return (APP_IDS as readonly string[]).includes(id);
}

/** Unreleased apps show only to users whose e-mail belongs to the provider's own domain. */
export function isProviderEmail(email: string, providerDomain: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0 || !providerDomain) return false;
  return email.slice(at + 1).toLowerCase() === providerDomain.toLowerCase();
}

export function visibleApps(email: string, providerDomain: string): AppDefinition[] {
  const staff = isProviderEmail(email, providerDomain);
  return APPS.filter((a) => a.released || staff);
}
