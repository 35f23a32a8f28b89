import type { Context } from 'hono';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import type { Deps } from '../deps';
import { sha256Hex } from '../crypto';
import { ApiError } from '../http/errors';

// A sign-in in progress lives in the database (the API keeps no process state), keyed by a hash
// of its state, and is bound to the browser that started it by an httpOnly cookie holding that
// state. Returning consumes the row: a state works once, in the browser that asked for it.

export type FlowKind = 'google' | 'azure' | 'sso';

const FLOW_TTL_MS = 10 * 60_000;
const COOKIE = 'sb_oidc';
/** The browser's time zone as the sign-in button named it (a new account starts in it). */
const TIME_ZONE_COOKIE = 'sb_sign_in_tz';

export type StartedFlow = {
  kind: FlowKind;
  accountId: string | null;
  state: string;
  nonce: string;
  codeVerifier: string;
  signup: boolean;
  /** the browser's time zone, already checked; absent when the start named none */
  timeZone?: string;
};

export type PendingFlow = Omit<StartedFlow, 'state'>;

/** Where each kind of flow returns to; registered with the identity provider as is. */
export function redirectUriFor(publicUrl: string, kind: FlowKind): string {
  switch (kind) {
    case 'google':
      return `${publicUrl}/`;
    case 'azure':
      return `${publicUrl}/api/auth/azure/callback`;
    case 'sso':
      return `${publicUrl}/sso/callback`;
  }
}

export async function saveFlow(c: Context, deps: Pick<Deps, 'db' | 'now' | 'config'>, flow: StartedFlow): Promise<void> {
  const now = deps.now();
  await deps.db.system(async (trx) => {
    // Abandoned sign-ins leave rows behind; each new one sweeps the expired ones.
    await trx.deleteFrom('oidc_flows').where('expires_at', '<', now).execute();
    await trx
      .insertInto('oidc_flows')
      .values({
        state_hash: sha256Hex(flow.state),
        kind: flow.kind,
        account_id: flow.accountId,
        nonce: flow.nonce,
        code_verifier: flow.codeVerifier,
        signup: flow.signup,
        expires_at: new Date(now.getTime() + FLOW_TTL_MS),
      })
      .execute();
  });
  const options = {
    path: '/api',
    httpOnly: true,
    secure: deps.config.publicUrl.startsWith('https://'),
    // Lax: the provider's redirect back to us is a top-level navigation and must carry it.
    sameSite: 'Lax',
    maxAge: FLOW_TTL_MS / 1000,
  } as const;
  setCookie(c, COOKIE, flow.state, options);
  // a plain redirect brings back no header of ours: the zone travels beside the state
  if (flow.timeZone) setCookie(c, TIME_ZONE_COOKIE, flow.timeZone, options);
}

/**
 * The pending flow for this state, removed so it cannot be used again. The state must be the one
 * this browser's cookie holds and of the expected kind; anything else is STATE_INVALID.
 */
export async function consumeFlow(
  c: Context,
  deps: Pick<Deps, 'db' | 'now'>,
  kind: FlowKind,
  state: string,
): Promise<PendingFlow> {
  const bound = getCookie(c, COOKIE);
  const timeZone = getCookie(c, TIME_ZONE_COOKIE);
  deleteCookie(c, COOKIE, { path: '/api' });
  if (timeZone !== undefined) deleteCookie(c, TIME_ZONE_COOKIE, { path: '/api' });
  if (!bound || bound !== state) {
    throw new ApiError(
      400,
      'STATE_INVALID',
      'This sign-in did not start in this browser or has already finished. Please sign in again.',
    );
  }
  const row = await deps.db.system((trx) =>
    trx.deleteFrom('oidc_flows').where('state_hash', '=', sha256Hex(state)).returningAll().executeTakeFirst(),
  );
  if (!row || row.kind !== kind || new Date(row.expires_at).getTime() <= deps.now().getTime()) {
    throw new ApiError(400, 'STATE_INVALID', 'This sign-in has expired or was already used. Please sign in again.');
  }
  return {
    kind: row.kind,
    accountId: row.account_id,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    signup: row.signup,
    ...(timeZone ? { timeZone } : {}),
  };
}
