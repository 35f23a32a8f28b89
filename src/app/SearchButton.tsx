import { Suspense, useLayoutEffect, useState } from 'react';
import { SearchIcon } from '../ui/icons';
import { SearchDialog } from './pages';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Opens the global customer search, also with Ctrl+K (Cmd+K on a Mac) from anywhere. */
export function SearchButton() {
  const [open, setOpen] = useState(false);

  // A layout effect: the shortcut works from the moment the button is on screen, not a frame later.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        className="btn btn-ghost search-trigger"
        aria-label="Search customers"
        onClick={() => setOpen(true)}
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
      >
        <SearchIcon />
        <span className="search-trigger-label">Search customers</span>
        <kbd className="kbd" aria-hidden="true">
          {isMac ? '⌘K' : 'Ctrl K'}
        </kbd>
      </button>
      {open && (
        <Suspense fallback={null}>
          <SearchDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
