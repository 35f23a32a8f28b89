import type { MouseEvent } from 'react';
import { useHost } from './host-context';

/**
 * 'Open in browser': only where the host offers it (Zoom, whose webview keeps links inside the
 * app). `path` is a path of the browser console, e.g. /settings/developers.
 */
export function OpenInBrowser({ path }: { path: string }) {
  const open = useHost().links?.openInBrowser;
  if (!open) return null;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    open(path);
  };
  return (
    <a
      className="open-in-browser"
      href={new URL(path, window.location.origin).href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onClick}
    >
      Open in browser
    </a>
  );
}
