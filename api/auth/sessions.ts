import type { Database, Trx } from '../db/index';
import type { Deps } from '../deps';
import type { Role } from '../contract/common';

/** Ghost sessions are short-lived: staff look, then return to Watch Tower. */
export const GHOST_SECONDS = 3600;

export type SignInAdmin = { id: string; account_id: string; email: string; role: Role; is_root: boolean };

export type EndReason = 'sign-out' | 'ghost-ended' | 'archived' | 'role-changed';

/** The active admin with this e-mail, in whichever account (the cross-account sign-in path). */
export function findActiveAdminByEmail(db: Database, email: string): Promise<SignInAdmin | undefined> {
  return db.system((trx) =>
    trx
      .selectFrom('admins')
      .select(['id', 'account_id', 'email', 'role', 'is_root'])
      .where('email', '=', email.trim().toLowerCase())
      .where('archived_at', 'is', null)
      .executeTakeFirst(),
  );
}

type IssueOptions = {
  /** the transaction to record the session in (it must see the admin's account) */
  trx?: Trx;
  /** ghost mode: the provider staff member acting as this admin */
  staffId?: string;
  /** defaults to SESSION_HOURS */
  ttlSeconds?: number;
};

/**
 * The one way anybody gets a session (sign-in, SSO, Zoom, Webex, the CLI link, ghost mode): a
 * `sessions` row, and a token naming it. Requests are accepted only while the row is live.
 */
export async function issueSessionToken(
  deps: Pick<Deps, 'tokens' | 'config' | 'db' | 'now'>,
  admin: SignInAdmin,
  options: IssueOptions = {},
): Promise<string> {
  const ttlSeconds = options.ttlSeconds ?? deps.config.sessionHours * 3600;
  const ghost = options.staffId !== undefined;
  const insert = (trx: Trx) =>
    trx
      .insertInto('sessions')
      .values({
        account_id: admin.account_id,
        admin_id: admin.id,
        ghost,
        staff_id: options.staffId ?? null,
        expires_at: new Date(deps.now().getTime() + ttlSeconds * 1000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const { id } = await (options.trx ? insert(options.trx) : deps.db.tenant(admin.account_id, insert));
  return deps.tokens.sign(
    {
      sid: id,
      sub: admin.id,
      acc: admin.account_id,
      // ghost sessions act as the account's admin, never with staff rights
      role: admin.role,
      root: ghost ? false : admin.is_root,
      ghost,
      email: admin.email,
      ...(ghost ? { stf: options.staffId } : {}),
    },
    ttlSeconds,
  );
}

/** Ends one session; false when it had already ended (so a second end mints nothing). */
export async function endSession(trx: Trx, sessionId: string, reason: EndReason): Promise<boolean> {
  const ended = await trx
    .updateTable('sessions')
    .set({ revoked_at: new Date(), reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return ended !== undefined;
}

/** Ends every live session of an admin (archived, role changed): their next request answers 401. */
export async function endSessionsOf(trx: Trx, adminId: string, reason: EndReason): Promise<void> {
  await trx
    .updateTable('sessions')
    .set({ revoked_at: new Date(), reason })
    .where('admin_id', '=', adminId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function signInLink(publicUrl: string, token: string): string {
  return `${publicUrl}/?token=${encodeURIComponent(token)}`;
}
