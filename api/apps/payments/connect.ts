import crypto from 'node:crypto';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import type { Session } from '../../auth/context';
import { audit, actorOf } from '../../audit';
import { sha256Hex } from '../../crypto';
import { ApiError } from '../../http/errors';
import { STATE_MESSAGES } from '../../contract/stripe-states';
import { PAYMENTS_APP, type StripeCallbackBody, type StripeConnection } from '../../contract/apps/payments';
import { connectFailure, connectSettings, isStripeError, requireConnect } from './stripe';

// Connecting the account's own Stripe (a Standard account) with Stripe Connect OAuth. The state
// sent to Stripe is single use, expires, names the admin who started and is bound to that
// admin's browser by a cookie nonce: a callback URL replayed, forged or opened elsewhere changes
// nothing. Only the connected account id (acct_…) and what the page shows are stored.

export const OAUTH_COOKIE = 'sb_stripe_connect';
export const OAUTH_COOKIE_PATH = '/api/payments/stripe';
const STATE_TTL_MS = 15 * 60_000;

export const CALLBACK_PATH = '/payments/settings/stripe/callback';

type ConnectionRow = {
  stripe_account_id: string;
  name: string | null;
  country: string | null;
  default_currency: string | null;
  charges_enabled: boolean;
  connected_at: Date;
};

export async function connectionRow(trx: Trx, accountId: string): Promise<ConnectionRow | null> {
  return (
    (
      await sql<ConnectionRow>`select stripe_account_id, name, country, default_currency, charges_enabled, connected_at from stripe_connections where account_id = ${accountId}`.execute(
        trx,
      )
    ).rows[0] ?? null
  );
}

export async function requireConnection(trx: Trx, accountId: string): Promise<ConnectionRow> {
  const row = await connectionRow(trx, accountId);
  if (!row) throw new ApiError(409, 'STRIPE_NOT_CONNECTED', STATE_MESSAGES.STRIPE_NOT_CONNECTED);
  return row;
}

export async function connectionView(deps: Pick<Deps, 'db' | 'config'>, accountId: string): Promise<StripeConnection> {
  const row = await deps.db.tenant(accountId, (trx) => connectionRow(trx, accountId));
  return {
    connected: !!row,
    configured: !!connectSettings(deps.config),
    accountId: row?.stripe_account_id ?? null,
    name: row?.name ?? null,
    country: row?.country ?? null,
    defaultCurrency: row?.default_currency ?? null,
    chargesEnabled: row?.charges_enabled ?? false,
    connectedAt: row ? new Date(row.connected_at).toISOString() : null,
  };
}

/** Starts Connect: a fresh state for this admin and browser, and Stripe's authorize URL. */
export async function startConnect(
  deps: Pick<Deps, 'db' | 'config' | 'now'>,
  session: Session,
): Promise<{ url: string; nonce: string; maxAgeSeconds: number }> {
  const { settings } = await requireConnect(deps.config);
  const now = deps.now();
  const state = crypto.randomBytes(24).toString('base64url');
  const nonce = crypto.randomBytes(24).toString('base64url');
  await deps.db.tenant(session.accountId, async (trx) => {
    // old, unused states of this account go: only the latest attempts matter
    await sql`delete from stripe_oauth_states where account_id = ${session.accountId} and (expires_at < ${now} or used_at is not null)`.execute(
      trx,
    );
    await sql`insert into stripe_oauth_states (state_hash, account_id, admin_id, browser_hash, created_at, expires_at)
      values (${sha256Hex(state)}, ${session.accountId}, ${session.adminId}, ${sha256Hex(nonce)}, ${now}, ${new Date(now.getTime() + STATE_TTL_MS)})`.execute(
      trx,
    );
  });
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('scope', 'read_write');
  url.searchParams.set('redirect_uri', `${deps.config.publicUrl.replace(/\/$/, '')}${CALLBACK_PATH}`);
  url.searchParams.set('state', state);
  return { url: url.toString(), nonce, maxAgeSeconds: STATE_TTL_MS / 1000 };
}

const WRONG_STATE =
  'This Stripe connection did not start in this browser, has already finished or took too long. Select Connect with Stripe again.';

/**
 * The callback: the state is spent first (whatever follows), then the code is exchanged with
 * Stripe and only the connected account id is kept.
 */
export async function completeConnect(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'log'>,
  session: Session,
  body: StripeCallbackBody,
  cookieNonce: string | undefined,
): Promise<StripeConnection> {
  const { stripe } = await requireConnect(deps.config);
  const now = deps.now();
  const spent = await deps.db.tenant(session.accountId, async (trx) => {
    const res = await sql`update stripe_oauth_states set used_at = ${now}
      where state_hash = ${sha256Hex(body.state)} and account_id = ${session.accountId} and admin_id = ${session.adminId}
        and browser_hash = ${sha256Hex(cookieNonce ?? '')} and used_at is null and expires_at > ${now}`.execute(trx);
    return Number(res.numAffectedRows ?? 0) === 1;
  });
  if (!spent) throw new ApiError(400, 'STATE_INVALID', WRONG_STATE);
  if (body.error || !body.code) {
    const message =
      body.error === 'access_denied'
        ? 'You declined the connection on Stripe, so nothing was connected.'
        : `Stripe did not connect the account${body.errorDescription ? `: ${body.errorDescription}` : '.'}`;
    throw new ApiError(400, body.error === 'access_denied' ? 'STRIPE_ACCESS_DENIED' : 'STRIPE_CONNECT_FAILED', message);
  }
  let stripeAccountId: string;
  try {
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: body.code });
    stripeAccountId = String(token.stripe_user_id ?? '');
    if (!/^acct_[A-Za-z0-9]+$/.test(stripeAccountId)) throw new Error('Stripe answered no connected account id');
  } catch (err) {
    if (isStripeError(err) && err.type === 'StripeInvalidGrantError') {
      throw new ApiError(
        400,
        'STRIPE_CODE_INVALID',
        'Stripe did not accept this authorization (it was already used or has expired). Select Connect with Stripe again.',
      );
    }
    throw connectFailure(err);
  }
  let account: Stripe.Account;
  try {
    account = await stripe.accounts.retrieve(stripeAccountId);
  } catch (err) {
    throw connectFailure(err);
  }
  await deps.db.tenant(session.accountId, async (trx) => {
    const taken = (
      await sql<{
        n: number;
      }>`select count(*)::int as n from stripe_connections where stripe_account_id = ${stripeAccountId} and account_id <> ${session.accountId}`.execute(
        trx,
      )
    ).rows[0]!.n;
    if (taken)
      throw new ApiError(409, 'STRIPE_ACCOUNT_IN_USE', 'This Stripe account is already connected to another account of ours.');
    const name = account.business_profile?.name ?? account.settings?.dashboard?.display_name ?? account.email ?? null;
    await sql`insert into stripe_connections (account_id, stripe_account_id, name, country, default_currency, charges_enabled, connected_at)
      values (${session.accountId}, ${stripeAccountId}, ${name}, ${account.country ?? null}, ${account.default_currency ?? null}, ${account.charges_enabled ?? false}, ${now})
      on conflict (account_id) do update set stripe_account_id = excluded.stripe_account_id, name = excluded.name, country = excluded.country,
        default_currency = excluded.default_currency, charges_enabled = excluded.charges_enabled, connected_at = excluded.connected_at`.execute(
      trx,
    );
    await audit(trx, session.accountId, actorOf(session), {
      namespace: PAYMENTS_APP,
      description: `Connected the Stripe account ${stripeAccountId}${name ? ` (${name})` : ''}`,
      event: 'payments.stripe-connected',
      at: now,
    });
  });
  return connectionView(deps, session.accountId);
}

/**
 * Disconnects: forgotten here first (Stripe's account.application.deauthorized that follows our
 * own deauthorization then finds nothing to do), then Stripe revokes our access. When Stripe
 * cannot be reached the connection is put back and the admin is told.
 */
export async function disconnect(deps: Pick<Deps, 'db' | 'config' | 'now'>, session: Session): Promise<StripeConnection> {
  const { stripe, settings } = await requireConnect(deps.config);
  const row = await deps.db.tenant(session.accountId, async (trx) => {
    const current = await requireConnection(trx, session.accountId);
    await sql`delete from stripe_connections where account_id = ${session.accountId}`.execute(trx);
    await audit(trx, session.accountId, actorOf(session), {
      namespace: PAYMENTS_APP,
      description: `Disconnected the Stripe account ${current.stripe_account_id}`,
      event: 'payments.stripe-disconnected',
      at: deps.now(),
    });
    return current;
  });
  try {
    await stripe.oauth.deauthorize({ client_id: settings.clientId, stripe_user_id: row.stripe_account_id });
  } catch (err) {
    // already revoked on Stripe's side: nothing left to undo there
    const revoked =
      isStripeError(err) &&
      (err.type === 'StripeInvalidClientError' ||
        err.type === 'StripeOAuthInvalidRequestError' ||
        err.type === 'StripePermissionError');
    if (!revoked) {
      await deps.db.tenant(session.accountId, async (trx) => {
        await sql`insert into stripe_connections (account_id, stripe_account_id, name, country, default_currency, charges_enabled, connected_at)
          values (${session.accountId}, ${row.stripe_account_id}, ${row.name}, ${row.country}, ${row.default_currency}, ${row.charges_enabled}, ${row.connected_at})
          on conflict do nothing`.execute(trx);
        await audit(trx, session.accountId, actorOf(session), {
          namespace: PAYMENTS_APP,
          description: `Could not disconnect the Stripe account ${row.stripe_account_id}: Stripe did not answer; it stays connected`,
          event: 'payments.stripe-disconnect-failed',
          at: deps.now(),
        });
      });
      throw connectFailure(err);
    }
  }
  return connectionView(deps, session.accountId);
}

/** Stripe says the account revoked our access: forget the connection (audited as the provider). */
export async function deauthorized(trx: Trx, accountId: string, stripeAccountId: string, now: Date): Promise<void> {
  const res =
    await sql`delete from stripe_connections where account_id = ${accountId} and stripe_account_id = ${stripeAccountId}`.execute(
      trx,
    );
  if (Number(res.numAffectedRows ?? 0) > 0) {
    await audit(trx, accountId, null, {
      namespace: PAYMENTS_APP,
      description: `The Stripe account ${stripeAccountId} was disconnected on Stripe`,
      event: 'payments.stripe-deauthorized',
      at: now,
    });
  }
}
