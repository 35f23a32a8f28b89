import { sql } from 'kysely';
import type { Database } from '../db/index';
import { DEMO_ACCOUNTS, seedAccount, type SeededAccount, type SeedStep } from './demo-accounts';
import { resultsSeedStep } from './results';

// Demo data for a fresh embedded database and for `npm run seed`. Re-seeding removes the demo
// accounts (by their e-mail domains) and creates them anew; other accounts are left alone.

export {
  DEMO_ACCOUNTS,
  demoAdmins,
  seedAccount,
  type DemoAccount,
  type SeedContext,
  type SeededAccount,
  type SeedStep,
} from './demo-accounts';

export const SEED_STEPS: SeedStep[] = [resultsSeedStep];

/** `encryptionKey` encrypts the accounts' developer secrets, made with each account. */
export async function seedDemo(db: Database, encryptionKey: string, now = new Date()): Promise<SeededAccount[]> {
  return db.system(async (trx) => {
    const domains = DEMO_ACCOUNTS.map((a) => a.domain);
    await trx.deleteFrom('accounts').where('email_domain', 'in', domains).execute();
    // An e-mail may only be active on one account: free demo e-mails held elsewhere.
    const emails = DEMO_ACCOUNTS.flatMap((a) => a.admins.map((x) => x.email));
    await trx
      .updateTable('admins')
      .set({ archived_at: now })
      .where('email', 'in', emails)
      .where('archived_at', 'is', null)
      .execute();
    const accounts: SeededAccount[] = [];
    for (const demo of DEMO_ACCOUNTS) accounts.push(await seedAccount(trx, demo, now, encryptionKey));
    for (const step of SEED_STEPS) await step({ trx, now, accounts, encryptionKey });
    return accounts;
  });
}

export async function hasAnyAccount(db: Database): Promise<boolean> {
  const row = await db.system((trx) => sql<{ n: number }>`select count(*)::int as n from accounts`.execute(trx));
  return (row.rows[0]?.n ?? 0) > 0;
}
