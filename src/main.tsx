import { createRoot } from 'react-dom/client';
import type { Host } from './host';
import { Console } from './app/Console';
import './styles.css';

/** Mounts the console for a host into the page's #root (or the given element). */
export function mountConsole(host: Host, element: HTMLElement | null = document.getElementById('root')): void {
  if (!element) throw new Error('mountConsole: no element to mount into');
  createRoot(element).render(<Console host={host} />);
}
