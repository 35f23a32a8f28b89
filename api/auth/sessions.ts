import type { Database } from '../db/index';
import type { Deps } from '../deps';
import type { Role } from '../contract/common';

export type SignInAdmin = { id: string; account_id: string; email: string; role: Role; is_root: boolean };

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

/** A session token for an admin, valid for SESSION_HOURS. */
export async function issueSessionToken(deps: Pick<Deps, 'tokens' | 'config'>, admin: SignInAdmin): Promise<string> {
  return deps.tokens.sign(
    { sub: admin.id, acc: admin.account_id, role: admin.role, root: admin.is_root, ghost: false, email: admin.email },
    deps.config.sessionHours * 3600,
  );
}

export function signInLink(publicUrl: string, token: string): string {
  return `${publicUrl}/?token=${encodeURIComponent(token)}`;
}
