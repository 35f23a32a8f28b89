import { sql } from 'kysely';
import type { Trx } from '../db/index';
import { seedAccount, type DemoAccount, type SeedContext, type SeedStep } from './demo-accounts';
import type { AppId } from '../contract/apps';
import type { BillingStatus } from '../contract/common';
import type { ResultStatus } from '../contract/results';
import { notify } from '../notifications/notify';
import { addToDailyRollup, recordResults, type DailyCount, type NewResult } from '../results/record';

// Demo history for Watch Tower, the customer search and the bell: a few more accounts (so the
// accounts list and the paid-accounts chart have a spread), the day each paid app became paid,
// months of results for every active app, and a couple of notifications.

const DAY = 86_400_000;

/** Accounts only Watch Tower needs; re-seeding replaces them like the main demo accounts. */
export const WATCH_TOWER_ACCOUNTS: DemoAccount[] = [
  {
    name: 'Initech Helpdesk',
    domain: 'initech.test',
    platform: 'zoom',
    createdDaysAgo: 160,
    admins: [
      { email: 'owner@initech.test', firstName: 'Peter', lastName: 'Gibbons', role: 'owner', timeZone: 'America/Chicago' },
      { email: 'milton@initech.test', firstName: 'Milton', lastName: 'Waddams', role: 'admin', timeZone: 'America/Chicago' },
    ],
    apps: [
      { app: 'one-time-passcode', status: 'subscription', paidDaysAgo: 125, credits: 620 },
      { app: 'passkeys', status: 'subscription', paidDaysAgo: 58, credits: 410 },
    ],
  },
  {
    name: 'Umbrella Health',
    domain: 'umbrella.test',
    platform: 'webex',
    createdDaysAgo: 140,
    admins: [
      { email: 'owner@umbrella.test', firstName: 'Alice', lastName: 'Abernathy', role: 'owner', timeZone: 'Europe/Berlin' },
    ],
    apps: [
      { app: 'document-signature', status: 'enterprise', paidDaysAgo: 104, credits: 8800, freeTier: 0 },
      { app: 'e-form', status: 'free-trial', trialDaysLeft: 4, credits: 40 },
    ],
  },
  {
    name: 'Stark Retail',
    domain: 'stark.test',
    platform: 'oidc',
    createdDaysAgo: 75,
    admins: [
      { email: 'owner@stark.test', firstName: 'Pepper', lastName: 'Potts', role: 'owner', timeZone: 'America/New_York' },
      { email: 'happy@stark.test', firstName: 'Happy', lastName: 'Hogan', role: 'supervisor', timeZone: 'America/New_York' },
    ],
    apps: [
      { app: 'payments', status: 'subscription', paidDaysAgo: 36, credits: 610 },
      { app: 'one-time-passcode', status: 'free-trial', trialDaysLeft: 12, credits: 35 },
    ],
  },
  {
    name: 'Wayne Finance',
    domain: 'wayne.test',
    platform: 'okta',
    createdDaysAgo: 42,
    admins: [{ email: 'owner@wayne.test', firstName: 'Lucius', lastName: 'Fox', role: 'owner', timeZone: 'America/New_York' }],
    apps: [{ app: 'passkeys', status: 'free-trial', trialDaysLeft: 18, credits: 22 }],
  },
  {
    name: 'Hooli Service',
    domain: 'hooli.test',
    platform: 'google',
    createdDaysAgo: 200,
    admins: [
      { email: 'owner@hooli.test', firstName: 'Gavin', lastName: 'Belson', role: 'owner', timeZone: 'America/Los_Angeles' },
    ],
    apps: [{ app: 'one-time-passcode', status: 'cancelled', endedDaysAgo: 50 }],
  },
];

/** Results per day at full volume, by app (a contact centre's typical task mix). */
const DAILY_VOLUME: Record<AppId, number> = {
  'one-time-passcode': 20,
  passkeys: 10,
  payments: 8,
  'document-signature': 6,
  'e-form': 5,
  'identity-verification': 2,
};

/** The demo customer whose history the search shows (Acme): documented in docs/console.md. */
export const DEMO_CUSTOMER = { customerRef: 'CUST-100042', phoneNumber: '+14155551042' };

function prng(seed: string) {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Activity = { app: AppId; fromDaysAgo: number; toDaysAgo: number };

/** How many results each app of an account completed per day, drawn deterministically. */
function dailyVolumes(key: string, activities: Activity[], now: Date): DailyCount[] {
  const rand = prng(key);
  const out: DailyCount[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const act of activities) {
    const span = Math.max(1, act.fromDaysAgo - act.toDaysAgo);
    for (let ago = act.fromDaysAgo; ago >= act.toDaysAgo; ago--) {
      const day = new Date(today - ago * DAY);
      const weekday = day.getUTCDay();
      // adoption ramps up over the first weeks, weekends are quiet
      const ramp = Math.min(1, 0.25 + ((act.fromDaysAgo - ago) / span) * 1.5);
      const weekend = weekday === 0 || weekday === 6 ? 0.35 : 1;
      // today is only partly over
      const share = ago === 0 ? Math.min(1, now.getUTCHours() / 20) : 1;
      const count = Math.round(DAILY_VOLUME[act.app] * ramp * weekend * share * (0.6 + rand() * 0.8));
      if (count > 0) out.push({ app: act.app, day: day.toISOString().slice(0, 10), count });
    }
  }
  return out;
}

/**
 * Expands daily volumes into individual results in one set-based statement (tens of thousands of
 * rows in about a second, even on PGlite) and adds the same volumes to the rollup.
 */
async function recordHistory(trx: Trx, accountId: string, volumes: DailyCount[], now: Date) {
  if (volumes.length === 0) return;
  await sql`insert into customer_results (account_id, app, status, ts, session_ref, phone_number, customer_ref)
    select ${accountId}::uuid, app,
      case when r < 0.86 then 'success' when r < 0.96 then 'failure' else 'timeout' end,
      least(day + interval '7 hours' + h * interval '13 hours', ${now.toISOString()}::timestamptz - interval '1 minute'),
      'ses_' || substr(md5(random()::text), 1, 16),
      '+1415555' || lpad((c % 10000)::text, 4, '0'),
      -- the demo customer's history is the curated one above: random rows never take its number
      'CUST-' || case when c = 100042 then 100240 else c end
    from (
      select v.app, v.day::timestamp at time zone 'UTC' as day, random() as r, random() as h, 100000 + floor(random() * 240)::int as c
      from unnest(${volumes.map((v) => v.app)}::text[], ${volumes.map((v) => v.day)}::date[], ${volumes.map((v) => v.count)}::int[]) as v(app, day, n)
      cross join lateral generate_series(1, v.n) as g
    ) s`.execute(trx);
  await addToDailyRollup(trx, accountId, volumes);
}

function activitiesOf(
  apps: { app: AppId; status: BillingStatus; paidDaysAgo?: number; trialDaysLeft?: number; endedDaysAgo?: number }[],
  createdDaysAgo: number,
): Activity[] {
  const out: Activity[] = [];
  for (const a of apps) {
    if (a.status === 'inactive') continue;
    // results start with the free trial that preceded a subscription
    const from =
      a.status === 'free-trial' ? 30 - (a.trialDaysLeft ?? 0) : Math.min(createdDaysAgo, (a.paidDaysAgo ?? createdDaysAgo) + 30);
    const to = a.status === 'cancelled' ? (a.endedDaysAgo ?? 30) : 0;
    if (from >= to) out.push({ app: a.app, fromDaysAgo: from, toDaysAgo: to });
  }
  return out;
}

export const resultsSeedStep: SeedStep = async ({ trx, now, accounts, encryptionKey }: SeedContext) => {
  await trx
    .deleteFrom('accounts')
    .where(
      'email_domain',
      'in',
      WATCH_TOWER_ACCOUNTS.map((a) => a.domain),
    )
    .execute();
  const emails = WATCH_TOWER_ACCOUNTS.flatMap((a) => a.admins.map((x) => x.email));
  await trx
    .updateTable('admins')
    .set({ archived_at: now })
    .where('email', 'in', emails)
    .where('archived_at', 'is', null)
    .execute();

  for (const seeded of accounts) {
    await recordHistory(
      trx,
      seeded.id,
      dailyVolumes(seeded.account.domain, activitiesOf(seeded.account.apps, seeded.account.createdDaysAgo), now),
      now,
    );
    if (seeded.account.key === 'acme') {
      // one customer with a recognisable history across apps, for trying the search
      const base = now.getTime() - 2 * 3_600_000;
      const mk = (app: AppId, status: ResultStatus, hoursAgo: number, n: number): NewResult => ({
        app,
        status,
        ts: new Date(base - hoursAgo * 3_600_000),
        sessionRef: `ses_demo${String(n).padStart(4, '0')}a1b2c3d4e5f6`,
        ...DEMO_CUSTOMER,
      });
      await recordResults(trx, seeded.id, [
        mk('one-time-passcode', 'success', 0, 1),
        mk('passkeys', 'failure', 26, 2),
        mk('one-time-passcode', 'timeout', 75, 3),
        mk('e-form', 'success', 200, 4),
      ]);
    }
  }

  for (const extra of WATCH_TOWER_ACCOUNTS) {
    const { id } = await seedAccount(trx, extra, now, encryptionKey);
    await recordHistory(trx, id, dailyVolumes(extra.domain, activitiesOf(extra.apps, extra.createdDaysAgo), now), now);
  }

  const acme = accounts.find((a) => a.account.key === 'acme');
  if (acme) {
    await notify(trx, acme.id, {
      kind: 'invitation.accepted',
      title: 'Sam Silva accepted the invitation',
      body: 'supervisor@acme.test joined as supervisor.',
      link: '/settings/admin-management',
    });
    await sql`update notifications set created_at = ${new Date(now.getTime() - 3 * DAY)} where account_id = ${acme.id}`.execute(
      trx,
    );
  }
};
