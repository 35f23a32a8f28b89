import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Trx } from '../db/index';
import { sha256Hex } from '../crypto';
import { compiledOnce } from '../db/compiled';
import { measured } from '../observability/metrics';
import type { AppId } from '../contract/apps';
import { isLocale, type Locale } from '../contract/locales';

// Link tokens: the capability a customer's SMS link carries. Long and random (32 bytes), stored
// only as a hash, single purpose, bound to one task, expiring, revocable and (for most purposes)
// spent by use. No account id in the URL: the token finds its account.

export type LinkState = 'ok' | 'expired' | 'used' | 'revoked';
/** `locale`: the language the link was sent in; null when the page follows the caller's browser */
export type ResolvedLink = {
  accountId: string;
  app: AppId;
  purpose: string;
  taskId: string | null;
  expiresAt: Date;
  state: LinkState;
  locale: Locale | null;
  /** the account's time zone: the page's dates are in it (customer-pages/dates.ts) */
  timeZone: string;
  /** the account's branding, read with the link (a page then needs no second transaction); null when it has none */
  branding: { name: string; logo: string; color: string } | null;
};

export async function createLinkToken(
  trx: Trx,
  accountId: string,
  link: { app: AppId; purpose: string; taskId?: string | null; ttlMs: number; now: Date; locale?: Locale | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(link.now.getTime() + link.ttlMs);
  await trx
    .insertInto('link_tokens')
    .values({
      token_hash: sha256Hex(token),
      account_id: accountId,
      app: link.app,
      purpose: link.purpose,
      task_id: link.taskId ?? null,
      expires_at: expiresAt,
      locale: link.locale ?? null,
    })
    .execute();
  return { token, expiresAt };
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

// Every customer page load starts here: built and compiled once (api/db/compiled.ts).
const LINK_READ = compiledOnce(1, (db, tokenHash) =>
  db
    .selectFrom('link_tokens')
    .innerJoin('accounts', 'accounts.id', 'link_tokens.account_id')
    .leftJoin('branding', 'branding.account_id', 'link_tokens.account_id')
    .select([
      'link_tokens.account_id',
      'link_tokens.app',
      'link_tokens.purpose',
      'link_tokens.task_id',
      'link_tokens.expires_at',
      'link_tokens.used_at',
      'link_tokens.revoked_at',
      'link_tokens.locale',
      'accounts.time_zone',
    ])
    .select(['branding.account_id as branded', 'branding.name as brand_name', 'branding.logo', 'branding.color'])
    .where('link_tokens.token_hash', '=', tokenHash),
);

/** The link a token names, with its state; null when no such token exists. */
export async function resolveLink(db: Database, token: string, now: Date): Promise<ResolvedLink | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  // before the token is resolved no account is known: this lookup by hash is the guarded door
  const [row] = await db.system((trx) => measured(trx, 'customer-page.link', () => LINK_READ.rows(trx, sha256Hex(token))));
  if (!row) return null;
  const state: LinkState = row.revoked_at
    ? 'revoked'
    : row.used_at
      ? 'used'
      : new Date(row.expires_at).getTime() <= now.getTime()
        ? 'expired'
        : 'ok';
  return {
    accountId: row.account_id,
    app: row.app as AppId,
    purpose: row.purpose,
    taskId: row.task_id,
    expiresAt: new Date(row.expires_at),
    state,
    locale: isLocale(row.locale) ? row.locale : null,
    timeZone: row.time_zone,
    branding: row.branded ? { name: row.brand_name!, logo: row.logo!, color: row.color! } : null,
  };
}

/** Spends a link (once): false when it was spent, revoked or expired meanwhile. */
export async function spendLink(trx: Trx, token: string, now: Date): Promise<boolean> {
  const res =
    await sql`update link_tokens set used_at = ${now} where token_hash = ${sha256Hex(token)} and used_at is null and revoked_at is null and expires_at > ${now}`.execute(
      trx,
    );
  return Number(res.numAffectedRows ?? 0) === 1;
}

export async function revokeTaskLinks(trx: Trx, accountId: string, taskId: string, now: Date): Promise<void> {
  await sql`update link_tokens set revoked_at = ${now} where account_id = ${accountId} and task_id = ${taskId} and revoked_at is null`.execute(
    trx,
  );
}

/**
 * The URL that fills {{link}}: on the account's verified custom domain when it has one (the
 * Host decides the account there), otherwise on the console's public address.
 */
export async function linkUrl(trx: Trx, accountId: string, publicUrl: string, token: string): Promise<string> {
  const row = await trx
    .selectFrom('branding')
    .select(['domain', 'domain_is_verified'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  const base = row?.domain && row.domain_is_verified ? `https://${row.domain}` : publicUrl.replace(/\/$/, '');
  return `${base}/c/${token}`;
}
