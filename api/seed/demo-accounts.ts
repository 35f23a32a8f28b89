import type { Trx } from '../db/index';
import type { AppId } from '../contract/apps';
import type { BillingStatus, Role } from '../contract/common';
import { createDeveloperKeys } from '../developers/service';
import { audit } from '../audit';
import { plansOf, TRIAL_DAYS } from '../contract/plans';

// The demo accounts and how one is made. Kept apart from the seed's list of steps (api/seed/index.ts)
// so that the areas whose steps make more demo accounts can use it without a cycle.

type DemoAdmin = { email: string; firstName: string; lastName: string; role: Role; isRoot?: boolean; timeZone?: string };
type DemoApp = {
  app: AppId;
  status: BillingStatus;
  credits?: number;
  /**
   * what the period includes; left out, the plan's figure (api/contract/plans.ts): a trial's
   * credits, a subscription's included credits. Enterprise sets its own (0: no limit).
   */
  freeTier?: number;
  trialDaysLeft?: number;
  /** when a paid app became paid (the paid-accounts chart reads it) */
  paidDaysAgo?: number;
  /** when a cancelled app stopped (its results end then) */
  endedDaysAgo?: number;
};
export type DemoAccount = {
  /** the main demo accounts tests refer to; other areas' extra demo accounts have none */
  key?: 'acme' | 'globex' | 'provider';
  name: string;
  domain: string;
  platform: 'azure' | 'google' | 'webex' | 'zoom' | 'okta' | 'oidc';
  color?: string;
  createdDaysAgo: number;
  admins: DemoAdmin[];
  apps: DemoApp[];
};

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    key: 'acme',
    name: 'Acme Support',
    domain: 'acme.test',
    platform: 'google',
    color: '#2563EB',
    createdDaysAgo: 180,
    admins: [
      { email: 'owner@acme.test', firstName: 'Olivia', lastName: 'Owens', role: 'owner', timeZone: 'Europe/London' },
      { email: 'admin@acme.test', firstName: 'Adam', lastName: 'Adeyemi', role: 'admin', timeZone: 'America/New_York' },
      { email: 'supervisor@acme.test', firstName: 'Sam', lastName: 'Silva', role: 'supervisor', timeZone: 'America/Chicago' },
    ],
    apps: [
      { app: 'one-time-passcode', status: 'subscription', credits: 840, paidDaysAgo: 150 },
      { app: 'passkeys', status: 'free-trial', credits: 86, trialDaysLeft: 9 },
      { app: 'e-form', status: 'free-trial', credits: 12, trialDaysLeft: 21 },
      { app: 'document-signature', status: 'inactive' },
      { app: 'payments', status: 'inactive' },
    ],
  },
  {
    key: 'globex',
    name: 'Globex Care',
    domain: 'globex.test',
    platform: 'azure',
    color: '#0F766E',
    createdDaysAgo: 95,
    admins: [
      { email: 'owner@globex.test', firstName: 'Grace', lastName: 'Gomez', role: 'owner', timeZone: 'America/Los_Angeles' },
    ],
    apps: [
      { app: 'payments', status: 'subscription', credits: 600, paidDaysAgo: 80 },
      { app: 'one-time-passcode', status: 'enterprise', credits: 15000, freeTier: 0, paidDaysAgo: 62 },
      { app: 'document-signature', status: 'cancelled' },
    ],
  },
  {
    key: 'provider',
    name: 'Switchboard',
    domain: 'provider.test',
    platform: 'okta',
    color: '#111827',
    createdDaysAgo: 400,
    admins: [
      { email: 'staff@provider.test', firstName: 'Sasha', lastName: 'Staff', role: 'owner', isRoot: true, timeZone: 'UTC' },
    ],
    apps: [
      { app: 'identity-verification', status: 'free-trial', credits: 3, freeTier: 100, trialDaysLeft: 25 },
      { app: 'one-time-passcode', status: 'subscription', credits: 10, paidDaysAgo: 300 },
    ],
  },
];

/** Every demo admin, as the development identity provider offers them for sign-in. */
export const demoAdmins = (): { email: string; firstName: string; lastName: string }[] =>
  DEMO_ACCOUNTS.flatMap((a) => a.admins.map(({ email, firstName, lastName }) => ({ email, firstName, lastName })));

export type SeededAccount = { id: string; account: DemoAccount; adminIds: Record<string, string> };
export type SeedContext = { trx: Trx; now: Date; accounts: SeededAccount[]; encryptionKey: string };

/** Further demo data from other areas (results, integrations, …), run after accounts exist. */
export type SeedStep = (ctx: SeedContext) => Promise<void>;

const DAY = 86_400_000;

/** What a period of the app's plan includes (a demo app that names no free tier of its own). */
function planFreeTier(app: DemoApp): number {
  const plans = plansOf(app.app);
  if (!plans) return 0;
  return app.status === 'subscription' ? plans.includedCredits : app.status === 'free-trial' ? plans.trialCredits : 0;
}

/**
 * The demo's usage so far, as ledger rows spread over the days of the period (kind 'opening'):
 * the ledger is what the usage total is kept from and what the daily credits chart and the
 * dashboards' credit tiles read, so every screen shows the same figure. One row per day.
 */
async function openingLedger(trx: Trx, accountId: string, app: DemoApp, now: Date): Promise<void> {
  const credits = app.credits ?? 0;
  if (credits <= 0) return;
  const trialDays = app.trialDaysLeft !== undefined ? TRIAL_DAYS - app.trialDaysLeft : 30;
  const days = Math.max(1, Math.min(30, app.paidDaysAgo ?? 30, trialDays, credits));
  const rows = Array.from({ length: days }, (_, i) => ({
    account_id: accountId,
    app: app.app,
    task_id: `opening-${app.app}-${i}`,
    kind: 'opening',
    units: Math.floor(credits / days) + (i < credits % days ? 1 : 0),
    ts: new Date(now.getTime() - (i + 0.5) * DAY),
  }));
  await trx.insertInto('credit_ledger').values(rows).execute();
}

/** One demo account: its admins, billing per app, branding and the audit entry of its creation. */
export async function seedAccount(trx: Trx, demo: DemoAccount, now: Date, encryptionKey: string): Promise<SeededAccount> {
  const createdAt = new Date(now.getTime() - demo.createdDaysAgo * DAY);
  const { id } = await trx
    .insertInto('accounts')
    // the account's time zone starts as its owner's (as migration 1112 did for accounts before it)
    .values({
      name: demo.name,
      platform: demo.platform,
      email_domain: demo.domain,
      created_at: createdAt,
      time_zone: demo.admins.find((x) => x.role === 'owner')?.timeZone ?? 'UTC',
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const adminIds: Record<string, string> = {};
  for (const a of demo.admins) {
    const row = await trx
      .insertInto('admins')
      .values({
        account_id: id,
        email: a.email,
        first_name: a.firstName,
        last_name: a.lastName,
        role: a.role,
        is_root: a.isRoot ?? false,
        photo: null,
        time_zone: a.timeZone ?? null,
        archived_at: null,
        last_sign_in_at: null,
        created_at: createdAt,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    adminIds[a.email] = row.id;
  }
  for (const app of demo.apps) {
    await trx
      .insertInto('app_billing')
      .values({
        account_id: id,
        app: app.app,
        status: app.status,
        trial_ends_at: app.trialDaysLeft ? new Date(now.getTime() + app.trialDaysLeft * DAY) : null,
        credits: app.credits ?? 0,
        free_tier: app.freeTier ?? planFreeTier(app),
        paid_since: app.paidDaysAgo ? new Date(now.getTime() - app.paidDaysAgo * DAY) : null,
      })
      .execute();
    await openingLedger(trx, id, app, now);
  }
  await trx
    .insertInto('branding')
    .values({ account_id: id, name: demo.name, color: demo.color ?? '#2563EB', domain: null })
    .execute();
  await createDeveloperKeys(trx, id, encryptionKey);
  await audit(trx, id, null, { namespace: 'global', description: `Account ${demo.name} created`, event: 'account.created' });
  return { id, account: demo, adminIds };
}
