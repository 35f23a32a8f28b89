import { bench, describe } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase } from '../api/helpers';
import { seedDemo } from '../../api/seed';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';
import { deliverWebhooksOnce } from '../../api/integrations/webhooks';
import { LOOPBACK_CERT, startPeer } from '../api/peers';

// The apps platform at scale on PostgreSQL: the Authentications list deep in 1,000,000
// verifications (keyset: page N costs what page 1 costs), send+check throughput against the
// development outbox, and 10,000 webhook deliveries to a loopback receiver.

const VERIFICATIONS = Number(process.env.BENCH_VERIFICATIONS ?? 1_000_000);
const { db, drop } = await openTestDatabase('postgres', undefined, { deadlineMs: 600_000 });
const receiver = await startPeer(undefined, { tls: true });
const config = testConfig({ outboundAllowHosts: [receiver.host], outboundCa: LOOPBACK_CERT });
// seeded with the server's own key: the webhook signing secrets it writes are read back with it
const [acme] = await seedDemo(db, config.encryptionKey);
// in chunks: one statement per chunk stays inside the database deadline (10 s) a query may take
const CHUNK = 100_000;
for (let from = 1; from <= VERIFICATIONS; from += CHUNK) {
  const to = Math.min(VERIFICATIONS, from + CHUNK - 1);
  await db.system((trx) =>
    sql`insert into otp_verifications (account_id, phone_number, customer_ref, agent, status, code_hmac, code_encrypted, sends, checks, max_checks, created_at, expires_at, ended_at, verified_at)
        select ${acme!.id}, '+1555' || lpad((g % 10000000)::text, 7, '0'), 'CUST-' || g, 'agent' || (g % 20) || '@acme.test', 'approved', 'x', 'x', 1, 1, 5,
               now() - make_interval(secs => g), now() - make_interval(secs => g) + interval '10 minutes', now() - make_interval(secs => g), now() - make_interval(secs => g)
        from generate_series(${from}::int, ${to}::int) g`.execute(trx),
  );
}
await sql`analyze otp_verifications`.execute(db.kysely);
await db.system((trx) =>
  sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values (${acme!.id}, 'dev-outbox', '', '', '')`.execute(
    trx,
  ),
);

// a failure is said (the first few): a bench that silently delivers nothing measures nothing
let logged = 0;
const log = (...args: unknown[]) => void (logged++ < 3 && console.error(...args));
const deps = { config, db, tokens: tokenSigner(config.sessionSecret), now: () => new Date(), log };
const app = createApp(deps);
const token = await issueSessionToken(deps, (await findActiveAdminByEmail(db, 'owner@acme.test'))!);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const deep = await db.tenant(
  acme!.id,
  async (trx) =>
    (
      await sql<{
        key: string;
      }>`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id as key
     from otp_verifications order by created_at desc, id desc offset 900000 limit 1`.execute(trx)
    ).rows[0]!.key,
);

async function call(method: string, path: string, body?: unknown) {
  const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res;
}

describe(`Authentications paging, ${VERIFICATIONS.toLocaleString('en')} verifications (PostgreSQL)`, () => {
  bench('first page', async () => void (await call('GET', '/api/one-time-passcode/tasks')));
  bench(
    'page 18,000 (900,000 in)',
    async () => void (await call('GET', `/api/one-time-passcode/tasks?lastKey=${encodeURIComponent(deep)}`)),
  );
  bench(
    'first page, filtered by agent (counted to 1,000)',
    async () => void (await call('GET', '/api/one-time-passcode/tasks?agent=agent7%40acme.test')),
  );
  bench(
    'page 900 filtered by agent',
    async () =>
      void (await call('GET', `/api/one-time-passcode/tasks?agent=agent7%40acme.test&lastKey=${encodeURIComponent(deep)}`)),
  );
  bench('first page, filtered by customer', async () => void (await call('GET', '/api/one-time-passcode/tasks?q=CUST-4242')));
});

let n = 0;
describe('send + check through the development outbox (PostgreSQL)', () => {
  bench(
    'send then check',
    async () => {
      const phone = `+1444${String(n++).padStart(7, '0')}`;
      const sent = (await (
        await call('POST', '/api/one-time-passcode/actions/send', { input: { phoneNumber: phone } })
      ).json()) as { taskId: string };
      await call('POST', '/api/one-time-passcode/actions/check', { taskId: sent.taskId, input: { code: '000000' } });
    },
    { iterations: 200, time: 0 },
  );
});

describe('webhook delivery to a loopback receiver (PostgreSQL)', () => {
  bench(
    '10,000 deliveries',
    async () => {
      const endpoint = await db.tenant(acme!.id, (trx) =>
        trx
          .insertInto('webhook_endpoints')
          .values({ account_id: acme!.id, app: 'one-time-passcode', url: `${receiver.url}/hook`, event_types: ['otp.sent'] })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      await db.tenant(acme!.id, async (trx) => {
        await sql`insert into webhook_events (id, account_id, app, type, payload, created_at)
        select gen_random_uuid(), ${acme!.id}, 'one-time-passcode', 'otp.sent', jsonb_build_object('id', 'evt_' || g, 'type', 'otp.sent', 'data', '{}'::jsonb), now() from generate_series(1, 10000) g`.execute(
          trx,
        );
        await sql`insert into webhook_deliveries (account_id, endpoint_id, event_id, state, next_attempt_at, created_at, updated_at)
        select account_id, ${endpoint.id}, id, 'pending', now(), now(), now() from webhook_events where account_id = ${acme!.id} and not exists (select 1 from webhook_deliveries d where d.event_id = webhook_events.id)`.execute(
          trx,
        );
      });
      receiver.received.length = 0;
      const started = performance.now();
      while ((await deliverWebhooksOnce(deps, { batchSize: 500 })) > 0);
      const seconds = (performance.now() - started) / 1000;
      const left = await db.system((trx) =>
        sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where state <> 'succeeded'`.execute(trx),
      );
      console.log(
        `webhooks: ${receiver.received.length} received in ${seconds.toFixed(1)} s (${Math.round(receiver.received.length / seconds)}/s), not delivered: ${left.rows[0]!.n}`,
      );
    },
    { iterations: 1, time: 0, warmupIterations: 0 },
  );
});

process.on('beforeExit', () => {
  void receiver.close();
  void drop();
});
