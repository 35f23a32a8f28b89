import { createContext, useContext } from 'react';
import type { Host } from '../host';

export const HostContext = createContext<Host | null>(null);

export function useHost(): Host {
  const host = useContext(HostContext);
  if (!host) throw new Error('useHost outside the console');
  return host;
}
