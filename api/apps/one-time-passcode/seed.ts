import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Database, Trx } from '../../db/index';
import { DEMO_ACCOUNTS } from '../../seed';
import { apiCaller } from '../platform/caller';
import { checkPasscode, getVerification, sendPasscode } from './service';

// Demo history of the One-Time Passcode app, made by the same service functions real use runs
// (with a clock walked through the last 30 days), so dashboards, Authentications, the customer
// search, the credits and the audit log agree on first start. The demo accounts use the
// development outbox, so nothing leaves the machine.

const DAY = 86_400_000;
const BATCH = 40;

/** The service's transactions, folded into one open transaction: same code, far fewer commits. */
export function inTransaction(db: Database, trx: Trx): Database {
  return {
    kind: db.kind,
    tenant: (_accountId: string, fn: (t: Trx) => Promise<unknown>) => fn(trx),
    system: (fn: (t: Trx) => Promise<unknown>) => fn(trx),
  } as unknown as Database;
}
const AGENTS = ['maya@acme.test', 'leo@acme.test', 'ines@acme.test'];

/** A small deterministic generator: the same demo on every machine. */
export function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

export async function seedOtpHistory(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  options: { perAccount?: Record<string, number>; now?: Date } = {},
): Promise<number> {
  const end = options.now ?? new Date();
  const counts = options.perAccount ?? { 'acme.test': 120, 'globex.test': 40 };
  let made = 0;
  for (const demo of DEMO_ACCOUNTS) {
    const n = counts[demo.domain] ?? 0;
    const account = n
      ? await deps.db.system((trx) =>
          trx.selectFrom('accounts').select('id').where('email_domain', '=', demo.domain).executeTakeFirst(),
        )
      : undefined;
    if (!account) continue;
    const accountId = account.id;
    await deps.db.tenant(accountId, (trx) =>
      sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values (${accountId}, 'dev-outbox', '', '', '')
        on conflict (account_id) do nothing`.execute(trx),
    );
    const rand = random(n * 7919);
    for (let first = 0; first < n; first += BATCH) {
      await deps.db.tenant(accountId, async (trx) => {
        const db = inTransaction(deps.db, trx);
        for (let i = first; i < Math.min(n, first + BATCH); i++) {
          // spread over 30 days, recent days a little busier
          let clock = new Date(end.getTime() - Math.pow(rand(), 1.3) * 30 * DAY);
          const d = { ...deps, db, now: () => clock };
          const phone = `+1555${String(2000000 + i * 37 + Math.floor(rand() * 30)).padStart(7, '0')}`;
          const agent = AGENTS[Math.floor(rand() * AGENTS.length)]!;
          const caller = apiCaller(agent, null, 'Demo agent app');
          const { verification } = await sendPasscode(
            d,
            accountId,
            { phoneNumber: phone, customerRef: `CUST-${100100 + i}`, agent },
            caller,
          );
          made++;
          if (verification.status !== 'pending') continue;
          const sms = await trx
            .selectFrom('dev_sms_outbox')
            .select('body')
            .where('to_number', '=', phone)
            .orderBy('created_at', 'desc')
            .executeTakeFirstOrThrow();
          const code = sms.body.match(/\b(\d{4,10})\b/)![1]!;
          const wrong = code === '000000' ? '111111' : '000000';
          const roll = rand();
          clock = new Date(clock.getTime() + 20_000 + rand() * 60_000);
          if (roll < 0.08) {
            // never checked: it expires, recorded at the moment it did
            clock = new Date(new Date(verification.expiresAt).getTime() + 1000);
            await getVerification(d, accountId, verification.id);
          } else if (roll < 0.12) {
            for (let k = 0; k < 5; k++) await checkPasscode(d, accountId, verification.id, wrong, caller);
          } else {
            if (roll < 0.25) await checkPasscode(d, accountId, verification.id, wrong, caller);
            await checkPasscode(d, accountId, verification.id, code, caller);
          }
        }
      });
    }
  }
  return made;
}
