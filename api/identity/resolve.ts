import type { Deps } from '../deps';
import type { Platform } from '../contract/common';
import { ApiError } from '../http/errors';
import { audit } from '../audit';
import { createDeveloperKeys } from '../developers/service';
import type { SignInAdmin } from '../auth/sessions';
import { notify } from '../notifications/notify';
import { settleInvitations } from './invitation-outcome';
import { isTimeZone } from '../contract/audit-log';
import { DEFAULT_ACCOUNT_TIME_ZONE } from '../contract/time-zone';

// The first-sign-in rules every way into the console shares (Google-type, Microsoft-type, SSO,
// Zoom, Webex): a verified e-mail becomes an admin session, or a clear refusal.

/** Mail providers anyone can sign up with: their domain never identifies a company. */
export const PUBLIC_MAIL_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'web.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'qq.com',
  '163.com',
  'fastmail.com',
  'hey.com',
  'tutanota.com',
]);

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function companyDomain(email: string): string | null {
  const domain = emailDomain(email);
  return PUBLIC_MAIL_DOMAINS.has(domain) ? null : domain;
}

/** "acme-support.co.uk" -> "Acme Support" */
export function companyNameFromDomain(domain: string): string {
  const label = domain.split('.')[0] ?? domain;
  return label
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export type VerifiedIdentity = {
  email: string;
  firstName?: string;
  lastName?: string;
  /** how the person signed in; a new account remembers it as its platform */
  platform: Platform;
  /** the zone of the browser (or desktop client) that signed in: a new account starts in it */
  timeZone?: string;
};

export type Resolution = { admin: SignInAdmin; outcome: 'existing' | 'invitation' | 'created' };

export const ACCOUNT_EXISTS_MESSAGE =
  'An account already exists for your company. Please contact your administrator to get access.';

/**
 * An existing admin signs in; an e-mail with a pending, unexpired invitation joins that account
 * with the invited role; an e-mail whose company already has an account is refused with
 * ACCOUNT_EXISTS; anyone else gets a new account as its owner.
 */
export async function resolveVerifiedEmail(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  identity: VerifiedIdentity,
): Promise<Resolution> {
  const email = identity.email.trim().toLowerCase();
  const firstName = identity.firstName?.trim() || '';
  const lastName = identity.lastName?.trim() || '';
  const now = deps.now();
  try {
    return await resolveIn(deps, identity, email, firstName, lastName, now);
  } catch (err) {
    // Two sign-ins of one e-mail at the same moment both found no admin and both made one: the
    // unique e-mail refused the second. Its retry finds the first's admin.
    if ((err as { code?: string })?.code === '23505') {
      throw new ApiError(
        409,
        'SIGN_IN_CONFLICT',
        'Another sign-in with this e-mail finished at the same moment. Sign in again.',
        undefined,
        { 'Retry-After': '1' },
      );
    }
    throw err;
  }
}

async function resolveIn(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  identity: VerifiedIdentity,
  email: string,
  firstName: string,
  lastName: string,
  now: Date,
): Promise<Resolution> {
  return deps.db.system(async (trx) => {
    const existing = await trx
      .selectFrom('admins')
      .select(['id', 'account_id', 'email', 'role', 'is_root', 'first_name', 'last_name'])
      .where('email', '=', email)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (existing) {
      await trx
        .updateTable('admins')
        .set({
          last_sign_in_at: now,
          // fill in a name the identity provider knows and we did not
          first_name: existing.first_name || firstName,
          last_name: existing.last_name || lastName,
        })
        .where('id', '=', existing.id)
        .execute();
      return { admin: existing, outcome: 'existing' };
    }

    const invitation = await trx
      .selectFrom('invitations')
      .select(['id', 'account_id', 'role'])
      .where('email', '=', email)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      // invited by several accounts: the one sent (or renewed) last wins
      .orderBy('expires_at', 'desc')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (invitation) {
      const admin = await trx
        .insertInto('admins')
        .values({
          account_id: invitation.account_id,
          email,
          first_name: firstName,
          last_name: lastName,
          role: invitation.role,
          photo: null,
          time_zone: null,
          archived_at: null,
          last_sign_in_at: now,
        })
        .returning(['id', 'account_id', 'email', 'role', 'is_root'])
        .executeTakeFirstOrThrow();
      await settleInvitations(trx, email, invitation.account_id, now);
      await audit(
        trx,
        invitation.account_id,
        { id: admin.id, firstName, lastName },
        {
          namespace: 'global',
          description: `${email} accepted the invitation and joined as ${invitation.role}`,
          event: 'invitation.accepted',
        },
      );
      const who = [firstName, lastName].filter(Boolean).join(' ') || email;
      await notify(trx, invitation.account_id, {
        kind: 'invitation.accepted',
        title: `${who} accepted the invitation`,
        body: `${email} joined as ${invitation.role}.`,
        link: '/settings/admin-management',
      });
      return { admin, outcome: 'invitation' };
    }

    const domain = companyDomain(email);
    if (domain) {
      const taken = await trx.selectFrom('accounts').select('id').where('email_domain', '=', domain).executeTakeFirst();
      if (taken) throw new ApiError(403, 'ACCOUNT_EXISTS', ACCOUNT_EXISTS_MESSAGE);
    }
    const name = domain ? companyNameFromDomain(domain) : [firstName, lastName].filter(Boolean).join(' ') || email;
    const account = await trx
      .insertInto('accounts')
      .values({
        name,
        platform: identity.platform,
        email_domain: domain,
        time_zone: identity.timeZone && isTimeZone(identity.timeZone) ? identity.timeZone : DEFAULT_ACCOUNT_TIME_ZONE,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await trx
      .insertInto('admins')
      .values({
        account_id: account.id,
        email,
        first_name: firstName,
        last_name: lastName,
        role: 'owner',
        photo: null,
        time_zone: null,
        archived_at: null,
        last_sign_in_at: now,
      })
      .returning(['id', 'account_id', 'email', 'role', 'is_root'])
      .executeTakeFirstOrThrow();
    await trx.insertInto('branding').values({ account_id: account.id, name, domain: null }).execute();
    await createDeveloperKeys(trx, account.id, deps.config.encryptionKey);
    await audit(
      trx,
      account.id,
      { id: admin.id, firstName, lastName },
      {
        namespace: 'global',
        description: `${email} created the account ${name}`,
        event: 'account.created',
      },
    );
    return { admin, outcome: 'created' };
  });
}
