import type { Trx } from '../db/index';

/**
 * Someone accepted `acceptedAccountId`'s invitation: that invitation is done (the person is an
 * admin now, listed as such), and every other account's pending invitation for the same e-mail
 * is kept and marked accepted-elsewhere, so those accounts see truthfully that it will not be
 * taken up. Which account the person joined is never said.
 */
export async function settleInvitations(trx: Trx, email: string, acceptedAccountId: string, now: Date): Promise<void> {
  await trx.deleteFrom('invitations').where('email', '=', email).where('account_id', '=', acceptedAccountId).execute();
  await trx
    .updateTable('invitations')
    .set({ status: 'accepted-elsewhere', closed_at: now })
    .where('email', '=', email)
    .where('account_id', '!=', acceptedAccountId)
    .where('status', '=', 'pending')
    .execute();
}
