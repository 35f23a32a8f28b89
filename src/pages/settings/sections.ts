// The settings screens, in side-menu order.
export const SETTINGS_SECTIONS = [
  { slug: 'branding', label: 'Branding', inMenu: true },
  { slug: 'domain', label: 'Domain', inMenu: true },
  { slug: 'admin-management', label: 'Admin Management', inMenu: true },
  { slug: 'sms-configuration', label: 'SMS Configuration', inMenu: true },
  { slug: 'customer-lookup', label: 'Customer Lookup', inMenu: true },
  { slug: 'single-sign-on', label: 'Single Sign-On', inMenu: true },
  { slug: 'billing', label: 'Billing', inMenu: true },
  { slug: 'logging', label: 'Logging', inMenu: true },
  { slug: 'audit-log', label: 'Audit log', inMenu: true },
  { slug: 'developers', label: 'Developers', inMenu: true },
  // SPEC's menu has no Storage: its home is Configuration > Storage of Document Signature and
  // Identity Verification; this address shows the same account-wide settings
  { slug: 'storage', label: 'Storage', inMenu: false },
  // nor Customer data (issue 42): linked from Storage and from every app's Configuration
  { slug: 'privacy', label: 'Customer data', inMenu: false },
] as const;
export type SettingsSlug = (typeof SETTINGS_SECTIONS)[number]['slug'];
