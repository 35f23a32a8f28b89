import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, openTestDatabase, useTestContext } from './helpers';
import { deliverWebhooksOnce } from '../../api/integrations/webhooks';
import { shipOnce } from '../../api/integrations/log-queue';
import { enqueueWebhookEvent } from '../../api/apps/platform/webhook-events';
import { audit } from '../../api/audit';
import { migrate } from '../../api/db/migrate';
import { MIGRATIONS } from '../../api/db/migrations/index';
import { useLoopbackReceiver } from '../support/loopback-receiver';

// Less personal data in sight (issue 42): webhook destinations made from now on and log shipments
// carry phone numbers masked unless the account opts in per destination; webhook destinations
// that existed before keep receiving what they received.

const PHONE = '+14155550123';
const MASKED = '+1 •••• •• 0123';

describe.each(DATABASE_KINDS)('Masked phone numbers for destinations (%s)', (kind) => {
  const { overrides, receiver } = useLoopbackReceiver();
  const t = useTestContext(kind, overrides);
  const acme = () => t.account('acme').id;

  it('a new webhook destination gets numbers masked; one that opted in gets them in full', async () => {
    const masked = await t.call('POST', '/one-time-passcode/webhooks', {
      as: 'owner@acme.test',
      body: { url: `${receiver.url}/masked`, eventTypes: ['otp.sent'] },
    });
    expect(masked.status).toBe(201);
    expect(await masked.json()).toMatchObject({ fullPhoneNumbers: false });
    const full = await t.call('POST', '/one-time-passcode/webhooks', {
      as: 'owner@acme.test',
      body: { url: `${receiver.url}/full`, eventTypes: ['otp.sent'], fullPhoneNumbers: true },
    });
    expect(await full.json()).toMatchObject({ fullPhoneNumbers: true });
    await t.db.tenant(acme(), (trx) =>
      enqueueWebhookEvent(
        trx,
        acme(),
        'one-time-passcode',
        'otp.sent',
        { phoneNumber: PHONE, note: `texted ${PHONE}` },
        t.clock.now,
      ),
    );
    await deliverWebhooksOnce(t.deps);
    const bodyTo = (path: string) => receiver.received.find((r) => r.path === path)!.body;
    expect(bodyTo('/masked')).not.toContain(PHONE);
    expect(JSON.parse(bodyTo('/masked')).data).toMatchObject({ phoneNumber: MASKED, note: `texted ${MASKED}` });
    expect(JSON.parse(bodyTo('/full')).data).toMatchObject({ phoneNumber: PHONE });
  });

  it('log shipments carry numbers masked until the account opts in for that destination', async () => {
    receiver.received.length = 0;
    const connected = await t.call('POST', '/logging', {
      as: 'admin@acme.test',
      body: { destination: 'sumologic', sumologic: { collectorUrl: `${receiver.url}/receiver/v1/http/ZaVnC4dhaV0` } },
    });
    expect(connected.status).toBe(200);
    // the Logging page's checkbox reads the opt-in from the destination's view
    expect(
      (
        (await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json()) as {
          sumologic: { fullPhoneNumbers: boolean };
        }
      ).sumologic.fullPhoneNumbers,
    ).toBe(false);
    await t.db.tenant(acme(), (trx) =>
      audit(trx, acme(), null, { namespace: 'global', description: `Called back ${PHONE}`, event: 'test.call' }),
    );
    await shipOnce(t.deps);
    const shipped = receiver.received.map((r) => r.body).join('\n');
    expect(shipped).toContain(`Called back ${MASKED}`);
    expect(shipped).not.toContain(PHONE);

    expect(
      (
        await t.call('PUT', '/privacy/full-numbers/logging/sumologic', {
          as: 'supervisor@acme.test',
          body: { fullPhoneNumbers: true },
        })
      ).status,
    ).toBe(403);
    const opted = await t.call('PUT', '/privacy/full-numbers/logging/sumologic', {
      as: 'admin@acme.test',
      body: { fullPhoneNumbers: true },
    });
    expect(opted.status).toBe(200);
    expect(
      (
        (await (await t.call('GET', '/logging', { as: 'admin@acme.test' })).json()) as {
          sumologic: { fullPhoneNumbers: boolean };
        }
      ).sumologic.fullPhoneNumbers,
    ).toBe(true);
    receiver.received.length = 0;
    await t.db.tenant(acme(), (trx) =>
      audit(trx, acme(), null, { namespace: 'global', description: `Called back ${PHONE} again`, event: 'test.call' }),
    );
    await shipOnce(t.deps);
    expect(receiver.received.map((r) => r.body).join('\n')).toContain(`Called back ${PHONE} again`);
  });
});

describe.each(DATABASE_KINDS)('Webhook destinations made before masking came (%s)', (kind) => {
  it('keep receiving full numbers after the upgrade', async () => {
    const index = MIGRATIONS.findIndex((m) => m.id === '1302_masked_numbers');
    const { db, drop } = await openTestDatabase(kind, MIGRATIONS.slice(0, index));
    try {
      const account = (
        await db.system((trx) =>
          sql<{ id: string }>`insert into accounts (name) values ('Before') returning id::text`.execute(trx),
        )
      ).rows[0]!.id;
      await db.system((trx) =>
        sql`insert into webhook_endpoints (account_id, app, url, event_types) values (${account}, 'one-time-passcode', 'https://hooks.example/x', '{otp.sent}')`.execute(
          trx,
        ),
      );
      await migrate(db);
      const row = await db.system((trx) =>
        sql<{
          full_phone_numbers: boolean;
        }>`select full_phone_numbers from webhook_endpoints where account_id = ${account}`.execute(trx),
      );
      expect(row.rows).toEqual([{ full_phone_numbers: true }]);
    } finally {
      await drop();
    }
  });
});
