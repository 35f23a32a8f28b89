import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';

// SPEC §7 lets a session token arrive as the `token` query parameter. An answer to such an
// address tells the browser to send no Referer from it (so the token never leaves in one), and
// keeps it out of caches; the live stream refuses it (test/api/live-bounds.test.ts).

describe.each(DATABASE_KINDS)('a session token in the address (%s)', (kind) => {
  const t = useTestContext(kind);

  it('is accepted, and its answer says Referrer-Policy: no-referrer and Cache-Control: no-store', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const res = await t.app.request(`/api/admins?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
  });

  it('a token in the Authorization header changes nothing', async () => {
    const res = await t.call('GET', '/admins', { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBeNull();
  });
});
