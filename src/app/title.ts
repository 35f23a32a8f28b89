import { APPS } from '../../api/contract/apps';
import { SETTINGS_SECTIONS } from '../pages/settings/sections';

// Each page's browser tab title, most specific first ("Branding · Settings · Switchboard"), so
// tabs, history and bookmarks can be told apart. Derived from the path in one place, so a new
// settings section or app tab gets its title from the registries without touching this.

const PRODUCT = 'Switchboard';

const FIXED: Record<string, string[]> = {
  '/support': ['Support'],
  '/support/ticket': ['Report an issue', 'Support'],
  '/sales': ['Contact sales'],
  '/resources': ['Resources'],
  '/legal/data-processing-addendum': ['Data Processing Addendum'],
  '/sso/callback': ['Signing in'],
  '/sign-up': ['Sign up'],
  '/settings': ['Settings'],
  '/watch-tower': ['Dashboard', 'Watch Tower'],
  '/watch-tower/accounts': ['Accounts', 'Watch Tower'],
  '/dev/sms-outbox': ['Development SMS outbox'],
  '/journeys': ['Journeys'],
  '/journeys/templates/new': ['New journey', 'Journeys'],
};

const WORDS: Record<string, string> = { sms: 'SMS', 'e-form': 'eForm' };

/** A route segment in words, acronyms kept: "sms-content" -> "SMS content". */
export function routeWords(segment: string): string {
  const text = segment
    .split('-')
    .map((w) => WORDS[w] ?? w)
    .join(' ');
  return text[0]!.toUpperCase() + text.slice(1);
}

function appParts(path: string): string[] | null {
  const [id, ...rest] = path.split('/').filter(Boolean);
  const app = APPS.find((a) => a.id === id);
  if (!app) return null;
  const relative = rest.join('/');
  if (!relative || relative === 'dashboard') return ['Dashboard', app.title];
  if (relative.startsWith('settings/')) return [routeWords(rest[1]!), 'Configuration', app.title];
  const tab = [...app.tabs]
    .filter((t) => t.path && (relative === t.path || relative.startsWith(`${t.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return [tab ? tab.label : routeWords(rest[0]!), app.title];
}

/** A title of these parts, most specific first, then the product: "Branding · Settings · Switchboard". */
export function titleOf(parts: string[]): string {
  return [...parts, PRODUCT].join(' · ');
}

/** The document title for a path; `signedIn` tells the root's app picker from the sign-in page. */
export function pageTitle(path: string, signedIn: boolean): string {
  const clean = path.replace(/\/+$/, '') || '/';
  let parts: string[];
  if (clean === '/') parts = [signedIn ? 'Apps' : 'Sign in'];
  else if (FIXED[clean]) parts = FIXED[clean]!;
  else if (clean.startsWith('/settings/')) {
    const slug = clean.split('/')[2];
    const section = SETTINGS_SECTIONS.find((s) => s.slug === slug);
    parts = section ? [section.label, 'Settings'] : ['Page not found'];
  } else if (clean.startsWith('/watch-tower/accounts/')) parts = ['Account', 'Watch Tower'];
  else if (clean.startsWith('/journeys/templates/')) parts = ['Edit journey', 'Journeys'];
  else if (clean.startsWith('/journeys/')) parts = ['Journey', 'Journeys'];
  else parts = appParts(clean) ?? ['Page not found'];
  return titleOf(parts);
}
