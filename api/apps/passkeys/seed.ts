import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { DEMO_ACCOUNTS } from '../../seed';
import { apiCaller } from '../platform/caller';
import {
  ceremonyAbandoned,
  ceremonyOptions,
  ceremonyVerify,
  enrollPasskey,
  getPasskeyTask,
  verifyWithPasskey,
  type PageContext,
} from './service';
import { SoftAuthenticator } from './soft-authenticator';
import type { PasskeyCeremonyResponse } from '../../contract/apps/passkeys';

// Demo history of the Passkeys app, made by the same service functions real use runs, with a
// clock walked through the last 30 days. The links go to the development outbox; the customer
// side of each ceremony is a software authenticator (ES256, attestation "none") answering the
// real options, and the server verifies its answers exactly as it verifies a phone's. The RP ID
// is the console's own host, as for a page served there.
//
// Acme's Passkeys free trial starts the demo at 86 of 100 credits used, and each link is a
// credit: the history's 10 tasks take it to 96, which leaves 4 links to try the app with (a test
// that needs more starts a trial of its own on another account, as the languages e2e does).

const DAY = 86_400_000;
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

type Outcome = 'ok' | 'expired' | 'cancelled-then-ok' | 'phished';
type Step = { daysAgo: number; customer: number; kind: 'enroll' | 'verify'; outcome: Outcome };

const CUSTOMERS = [
  {
    ref: 'CUST-100101',
    name: 'Ada Lovelace',
    phone: '+15553100101',
    device: {
      aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
      backupEligible: true,
      backedUp: true,
      transports: ['internal', 'hybrid'],
    },
    ua: PHONE_UA,
  },
  {
    ref: 'CUST-100102',
    name: 'Grace Hopper',
    phone: '+15553100102',
    device: {
      aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4',
      backupEligible: true,
      backedUp: true,
      transports: ['internal', 'hybrid'],
    },
    ua: ANDROID_UA,
  },
  {
    ref: 'CUST-100103',
    name: 'Alan Turing',
    phone: '+15553100103',
    device: {
      aaguid: 'cb69481e-8ff7-4039-93ec-0a2729a154a8',
      backupEligible: false,
      backedUp: false,
      transports: ['usb', 'nfc'],
    },
    ua: ANDROID_UA,
  },
  {
    ref: 'CUST-100104',
    name: 'Katherine Johnson',
    phone: '+15553100104',
    device: { backupEligible: false, backedUp: false, transports: ['internal'] },
    ua: PHONE_UA,
  },
  {
    ref: 'CUST-100105',
    name: 'Edsger Dijkstra',
    phone: '+15553100105',
    device: {
      aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
      backupEligible: true,
      backedUp: true,
      transports: ['internal', 'hybrid'],
    },
    ua: PHONE_UA,
  },
];

const STEPS: Step[] = [
  { daysAgo: 27, customer: 0, kind: 'enroll', outcome: 'ok' },
  { daysAgo: 24, customer: 1, kind: 'enroll', outcome: 'ok' },
  { daysAgo: 21, customer: 0, kind: 'verify', outcome: 'ok' },
  { daysAgo: 18, customer: 2, kind: 'enroll', outcome: 'ok' },
  { daysAgo: 15, customer: 4, kind: 'enroll', outcome: 'expired' },
  { daysAgo: 12, customer: 1, kind: 'verify', outcome: 'cancelled-then-ok' },
  { daysAgo: 9, customer: 3, kind: 'enroll', outcome: 'ok' },
  { daysAgo: 6, customer: 0, kind: 'verify', outcome: 'phished' },
  { daysAgo: 3, customer: 3, kind: 'verify', outcome: 'expired' },
  { daysAgo: 1, customer: 0, kind: 'verify', outcome: 'ok' },
];

export async function seedPasskeyHistory(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  options: { now?: Date; domain?: string } = {},
): Promise<number> {
  const end = options.now ?? new Date();
  const demo = DEMO_ACCOUNTS.find((a) => a.domain === (options.domain ?? 'acme.test'));
  const account = demo
    ? await deps.db.system((trx) =>
        trx.selectFrom('accounts').select('id').where('email_domain', '=', demo.domain).executeTakeFirst(),
      )
    : undefined;
  if (!account) return 0;
  const accountId = account.id;
  await deps.db.tenant(accountId, (trx) =>
    sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values (${accountId}, 'dev-outbox', '', '', '')
      on conflict (account_id) do nothing`.execute(trx),
  );
  const publicUrl = new URL(deps.config.publicUrl);
  const devices = CUSTOMERS.map((c) => new SoftAuthenticator(c.device));
  let clock = end;
  const d = { ...deps, now: () => clock };
  let made = 0;
  for (const [i, step] of STEPS.entries()) {
    const customer = CUSTOMERS[step.customer]!;
    const device = devices[step.customer]!;
    clock = new Date(end.getTime() - step.daysAgo * DAY - (i % 5) * 3_600_000);
    const agent = ['maya@acme.test', 'leo@acme.test', 'ines@acme.test'][i % 3]!;
    const caller = apiCaller(agent, null, 'Demo agent app');
    const task =
      step.kind === 'enroll'
        ? await enrollPasskey(
            d,
            accountId,
            { customerRef: customer.ref, phoneNumber: customer.phone, displayName: customer.name, agent },
            caller,
          )
        : await verifyWithPasskey(d, accountId, { customerRef: customer.ref, phoneNumber: customer.phone, agent }, caller);
    made++;
    if (task.status !== 'link_sent') continue;
    const sms = await deps.db.tenant(accountId, (trx) =>
      trx
        .selectFrom('dev_sms_outbox')
        .select('body')
        .where('account_id', '=', accountId)
        .where('to_number', '=', customer.phone)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow(),
    );
    const token = sms.body.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
    const page: PageContext = {
      rpId: publicUrl.hostname,
      origin: publicUrl.origin,
      ip: `198.51.100.${10 + step.customer}`,
      userAgent: customer.ua,
      hostAccount: null,
      locale: 'en',
    };
    if (step.outcome === 'expired') {
      clock = new Date(new Date(task.expiresAt).getTime() + 1000);
      await getPasskeyTask(d, accountId, task.id);
      continue;
    }
    clock = new Date(clock.getTime() + 45_000);
    let opts = (await ceremonyOptions(d, token, page)).options;
    if (step.outcome === 'cancelled-then-ok') {
      clock = new Date(clock.getTime() + 30_000);
      await ceremonyAbandoned(d, token, 'cancelled', page);
      clock = new Date(clock.getTime() + 20_000);
      opts = (await ceremonyOptions(d, token, page)).options;
    }
    clock = new Date(clock.getTime() + 15_000);
    // a phishing page relaying the ceremony: the browser names its own origin, and it is refused
    const origin = step.outcome === 'phished' ? 'https://acme-support-login.example' : page.origin;
    const answer = step.kind === 'enroll' ? device.register(opts, origin) : device.authenticate(opts, origin);
    await ceremonyVerify(d, token, answer as unknown as PasskeyCeremonyResponse, page);
  }
  return made;
}
