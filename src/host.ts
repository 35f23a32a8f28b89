import type { ComponentType, ReactNode } from 'react';
import type { Role } from '../api/contract/common';

// The interface every host adapter (hosts/<kind>/) implements. The core owns it and is handed an
// implementation by the entry that mounts it; the core never imports from hosts/.

export type HostKind = 'browser' | 'zoom' | 'webex';

/** What a host's sign-in produced. */
export type TokenResult =
  /** a session token; embedded hosts may also report the role their sign-in answered */
  | { outcome: 'token'; token: string; role?: Role }
  /** no session: the browser shows sign-in; an embedded host shows nothing */
  | { outcome: 'none' }
  /**
   * signed in to the host but without admin access to the console; `agentToken` is the session
   * the sign-in answered anyway (an agent or supervisor), which the Agent Preview runs actions with
   */
  | { outcome: 'unauthorized'; agentToken?: string }
  | { outcome: 'error'; message: string }
  /** an embedded entry opened in a plain browser tab: it says where it runs instead of signing in */
  | { outcome: 'outside' };

export type UnauthorizedCardProps = {
  /** the agent functions this user may still use, shown in the scrolling Agent Preview area */
  agentPreview?: ReactNode;
  /** a session that may run agent actions: the Agent Preview becomes live with it */
  agentToken?: string;
};

/**
 * Everything the console core needs from where it runs. Each entry (hosts/<kind>/main.tsx)
 * builds one and hands it to mountConsole; the core never imports a host SDK.
 */
export interface Host {
  kind: HostKind;
  /** true inside a desktop host (Zoom, Webex): there is no sign-in page, the host signs in */
  embedded: boolean;
  /** the path the entry is served under ('' for the browser, '/zoom', '/webex') */
  basePath: string;
  acquireToken(): Promise<TokenResult>;
  /** shown when acquireToken answers 'unauthorized' */
  UnauthorizedCard: ComponentType<UnauthorizedCardProps>;
  /** host-specific links, e.g. Zoom's 'Open in browser' for pages that need a full browser */
  links?: {
    openInBrowser?: (path: string) => void;
  };
}
