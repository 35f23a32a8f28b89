import { Link } from 'wouter';

// SPEC §2 gives Identity Verification three tabs (Dashboard, Verifications, Configuration): the
// review queue is a view of Verifications (?view=needs-review), not a tab or a route of its own.

export const NEEDS_REVIEW = 'needs-review';

/** Verifications' "Needs review" view, with a case open when given (relative to the app's root). */
export function needsReviewHref(session?: string): string {
  return `/verifications?view=${NEEDS_REVIEW}${session ? `&session=${encodeURIComponent(session)}` : ''}`;
}

/** The two views of Verifications: every verification, and the cases waiting for a reviewer. */
export function VerificationViews({ current }: { current: 'all' | typeof NEEDS_REVIEW }) {
  const item = (view: typeof current, href: string, label: string) => (
    <Link
      href={href}
      className={view === current ? 'segmented-item segmented-active' : 'segmented-item'}
      aria-current={view === current ? 'page' : undefined}
    >
      {label}
    </Link>
  );
  return (
    <nav className="segmented idv-views" aria-label="Verification views">
      {item('all', '/verifications', 'All verifications')}
      {item(NEEDS_REVIEW, needsReviewHref(), 'Needs review')}
    </nav>
  );
}
