import type { Config } from './config';
import type { Database } from './db/index';
import type { TokenSigner } from './auth/token';
import type { CustomFetchOptions } from 'openid-client';
import type { LiveHub } from './live/hub';
import type { Readiness } from './observability/readiness';

/** A fetch for the identity provider's endpoints (discovery, token, keys). */
export type OidcFetch = (url: string, init: CustomFetchOptions) => Promise<Response>;

/** What the API is built from; tests build it with their own database and config. */
export type Deps = {
  config: Config;
  db: Database;
  tokens: TokenSigner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  /** how sign-in reaches identity providers; defaults to a bounded fetch (api/identity/oidc.ts) */
  oidcFetch?: OidcFetch;
  /** this process's live-update streams (api/live); absent where none are served (most tests) */
  live?: LiveHub;
  /** what GET /api/ready reports (the server's: its listener and drain); absent: the database alone */
  readiness?: Readiness;
};
