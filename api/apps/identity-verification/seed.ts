import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Database, Trx } from '../../db/index';
import { apiCaller, type Caller } from '../platform/caller';
import { sampleDocumentPng, sampleSelfieJpeg } from './sample-images';
import { chooseDocument, getSession, startSession, submitSession, uploadImage } from './service';
import { decide, enterMrz, type Reviewer } from './review';

// Demo history of Identity Verification, made by the service functions real use runs (clock
// walked through the last 30 days): sessions started by agents, photos sent from the customer
// page (small images drawn in code), MRZ typed and decided by the provider's staff reviewer.
// The app is unreleased, so the history is in the provider's own account, the one whose users
// see it.

const DAY = 86_400_000;
const AGENTS = ['maya@provider.test', 'leo@provider.test'];
const NAMES = [
  ['ERIKSSON', 'ANNA MARIA'],
  ['OKAFOR', 'CHIDI'],
  ['NAKAMURA', 'HANA'],
  ['SILVA', 'JOAO PEDRO'],
  ['MULLER', 'LENA'],
  ['HASSAN', 'OMAR'],
];

function inTransaction(db: Database, trx: Trx): Database {
  return {
    kind: db.kind,
    tenant: (_accountId: string, fn: (t: Trx) => Promise<unknown>) => fn(trx),
    system: (fn: (t: Trx) => Promise<unknown>) => fn(trx),
  } as unknown as Database;
}

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const digit = (s: string) =>
  String(
    [...s].reduce(
      (sum, ch, i) => sum + (ch === '<' ? 0 : /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 55) * [7, 3, 1][i % 3]!,
      0,
    ) % 10,
  );

/** A TD3 (passport) MRZ with right check digits, as a reviewer would type it. */
function passportMrz(number: string, last: string, first: string, birth: string, expiry: string, sex: 'M' | 'F'): string[] {
  const doc = number.padEnd(9, '<');
  const personal = '<'.repeat(14);
  const composite = `${doc}${digit(doc)}${birth}${digit(birth)}${expiry}${digit(expiry)}${personal}${digit(personal)}`;
  return [
    `P<UTO${last}<<${first.replace(/ /g, '<')}`.padEnd(44, '<').slice(0, 44),
    `${doc}${digit(doc)}UTO${birth}${digit(birth)}${sex}${expiry}${digit(expiry)}${personal}${digit(personal)}${digit(composite)}`,
  ];
}

export async function seedIdvHistory(deps: Deps, options: { count?: number; now?: Date } = {}): Promise<number> {
  const end = options.now ?? new Date();
  const n = options.count ?? 36;
  const account = await deps.db.system((trx) =>
    trx.selectFrom('accounts').select('id').where('email_domain', '=', 'provider.test').executeTakeFirst(),
  );
  if (!account) return 0;
  const accountId = account.id;
  const existing = await deps.db.tenant(
    accountId,
    async (trx) =>
      (await sql<{ n: number }>`select count(*)::int as n from idv_sessions where account_id = ${accountId}`.execute(trx))
        .rows[0]!.n,
  );
  if (existing) return 0;
  const staff = await deps.db.system((trx) =>
    trx
      .selectFrom('admins')
      .select(['id', 'first_name', 'last_name'])
      .where('email', '=', 'staff@provider.test')
      .where('archived_at', 'is', null)
      .executeTakeFirst(),
  );
  const reviewer: Reviewer = {
    kind: 'admin',
    actor: staff ? { id: staff.id, firstName: staff.first_name, lastName: staff.last_name } : null,
    label: staff ? `${staff.first_name} ${staff.last_name}` : 'Reviewer',
    ip: null,
    userAgent: 'Demo review',
    adminId: staff?.id ?? null,
  };
  const customer: Caller = {
    kind: 'api',
    actor: { id: null, firstName: 'Customer', lastName: '' },
    label: 'Customer',
    ip: null,
    userAgent: 'Demo phone',
  };
  await deps.db.tenant(accountId, (trx) =>
    sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values (${accountId}, 'dev-outbox', '', '', '')
      on conflict (account_id) do nothing`.execute(trx),
  );
  const rand = random(4242);
  let made = 0;
  await deps.db.tenant(accountId, async (trx) => {
    const db = inTransaction(deps.db, trx);
    for (let i = 0; i < n; i++) {
      let clock = new Date(end.getTime() - Math.pow(rand(), 1.2) * 30 * DAY);
      const d = { ...deps, db, now: () => clock };
      const later = (ms: number) => (clock = new Date(Math.min(end.getTime(), clock.getTime() + ms)));
      const [last, first] = NAMES[i % NAMES.length]!;
      const birthYear = 1950 + Math.floor(rand() * 50);
      const birth = `${String(birthYear % 100).padStart(2, '0')}${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
      const agent = AGENTS[i % AGENTS.length]!;
      const session = await startSession(
        d,
        accountId,
        {
          customerRef: `CUST-${200100 + i}`,
          phoneNumber: `+1555${String(3000000 + i * 53).padStart(7, '0')}`,
          expectedName: `${first} ${last}`.replace(/\b([A-Z])([A-Z]*)/g, (_, a: string, b: string) => a + b.toLowerCase()),
          expectedDateOfBirth: `19${birth.slice(0, 2)}-${birth.slice(2, 4)}-${birth.slice(4, 6)}`,
          agent,
        },
        apiCaller(agent, null, 'Demo agent app'),
      );
      made++;
      const roll = rand();
      if (roll < 0.05) {
        // never opened: expires with its link
        later(2 * 3600_000);
        await getSession(d, accountId, session.id);
        continue;
      }
      later(60_000 + rand() * 120_000);
      const photos = async (type: 'passport' | 'id_card') => {
        await chooseDocument(d, accountId, session.id, type, customer);
        later(30_000);
        await uploadImage(d, accountId, session.id, 'front', sampleDocumentPng(i, 'front'), customer);
        if (type === 'id_card') await uploadImage(d, accountId, session.id, 'back', sampleDocumentPng(i, 'back'), customer);
        later(20_000);
        await uploadImage(d, accountId, session.id, 'selfie', sampleSelfieJpeg(i), customer);
        await submitSession(d, accountId, session.id, customer);
      };
      await photos(i % 3 === 0 ? 'id_card' : 'passport');
      if (roll < 0.12 && clock.getTime() > end.getTime() - 2 * DAY) continue; // recent: still waiting for a reviewer
      later(5 * 60_000 + rand() * 90 * 60_000);
      const expiry = roll < 0.2 ? '190101' : '330101';
      await enterMrz(
        d,
        accountId,
        session.id,
        passportMrz(`UT${String(100000 + i * 7).padStart(7, '0')}`, last, first, birth, expiry, i % 2 ? 'M' : 'F'),
        reviewer,
      );
      later(60_000 + rand() * 10 * 60_000);
      if (roll < 0.2) await decide(d, accountId, session.id, { decision: 'declined', reason: 'document_expired' }, reviewer);
      else if (roll < 0.27)
        await decide(
          d,
          accountId,
          session.id,
          { decision: 'declined', reason: 'face_mismatch', note: 'Selfie shows a different person.' },
          reviewer,
        );
      else if (roll < 0.37) {
        await decide(d, accountId, session.id, { decision: 'resubmission_requested', reason: 'image_unreadable' }, reviewer);
        later(20 * 60_000);
        await photos('passport');
        later(30 * 60_000);
        await enterMrz(
          d,
          accountId,
          session.id,
          passportMrz(`UT${String(100000 + i * 7).padStart(7, '0')}`, last, first, birth, '330101', i % 2 ? 'M' : 'F'),
          reviewer,
        );
        await decide(d, accountId, session.id, { decision: 'approved', reason: 'document_and_selfie_match' }, reviewer);
      } else if (roll < 0.42 && clock.getTime() > end.getTime() - 3 * DAY)
        continue; // typed, decision pending
      else await decide(d, accountId, session.id, { decision: 'approved', reason: 'document_and_selfie_match' }, reviewer);
    }
  });
  return made;
}
