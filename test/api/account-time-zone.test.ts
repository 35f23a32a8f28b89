import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { createLinkToken } from '../../api/customer-pages/links';

// The account's time zone: every role reads it and the console shows dates in it; only the owner
// changes it, audited; customer pages show their dates in it.

const OWNER = 'owner@acme.test';
const ADMIN = 'admin@acme.test';

describe.each(DATABASE_KINDS)('The account time zone (%s)', (kind) => {
  const t = useTestContext(kind);

  it('starts as the owner’s zone and comes with the bootstrap', async () => {
    const res = await t.call('GET', '/account-time-zone', { as: ADMIN });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ timeZone: 'Europe/London' });
    const boot = (await (await t.call('GET', '/admins/bootstrap', { as: ADMIN })).json()) as { account: { timeZone: string } };
    expect(boot.account.timeZone).toBe('Europe/London');
  });

  it('only the owner changes it; an admin is refused', async () => {
    expect((await t.call('PUT', '/account-time-zone', { as: ADMIN, body: { timeZone: 'Asia/Tokyo' } })).status).toBe(403);
    expect(await (await t.call('GET', '/account-time-zone', { as: OWNER })).json()).toEqual({ timeZone: 'Europe/London' });
  });

  it('a zone that does not exist is a 400 on the field, in words', async () => {
    const res = await t.call('PUT', '/account-time-zone', { as: OWNER, body: { timeZone: 'Mars/Olympus_Mons' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('Choose a time zone from the list');
  });

  it('the owner’s change is saved and in the audit log', async () => {
    const res = await t.call('PUT', '/account-time-zone', { as: OWNER, body: { timeZone: 'America/New_York' } });
    expect(res.status).toBe(200);
    expect(await (await t.call('GET', '/account-time-zone', { as: ADMIN })).json()).toEqual({ timeZone: 'America/New_York' });
    const audit = (await (await t.call('GET', '/audit-log', { as: OWNER })).json()) as { event: string; description: string }[];
    expect(audit.find((e) => e.event === 'account.time-zone.updated')?.description).toBe(
      "Changed the account's time zone from Europe/London to America/New_York",
    );
  });

  it('a customer page shows its time in the account’s zone', async () => {
    const acme = t.account('acme').id;
    await t.call('PUT', '/account-time-zone', { as: OWNER, body: { timeZone: 'Asia/Tokyo' } });
    const link = await t.db.tenant(acme, (trx) =>
      createLinkToken(trx, acme, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 3_600_000, now: t.clock.now }),
    );
    // Tokyo is UTC+9 all year: the hour written by hand, not by Intl
    const h = (link.expiresAt.getUTCHours() + 9) % 24;
    const tokyo = `${h % 12 || 12}:${String(link.expiresAt.getUTCMinutes()).padStart(2, '0')}\u202f${h < 12 ? 'AM' : 'PM'} GMT+9`;
    const html = await (await t.app.request(`/c/${link.token}`, { headers: { 'accept-language': 'en' } })).text();
    // ICU writes a narrow or a plain space before AM/PM depending on its version
    expect(html.replace(/&#x202F;|&#8239;|\u202f/gi, ' ')).toContain(tokyo.replace('\u202f', ' '));
  });
});
