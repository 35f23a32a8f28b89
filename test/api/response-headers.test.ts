import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';

// Answers that hold account data must never be sniffed into another type or kept by a cache.
describe.each(DATABASE_KINDS)('API answer headers (%s)', (kind) => {
  const t = useTestContext(kind);

  const calls: [string, string, string | undefined, unknown?][] = [
    ['GET', '/admins/bootstrap', 'owner@acme.test'],
    ['GET', '/admins', 'owner@acme.test'],
    ['GET', '/invitations', 'owner@acme.test'],
    ['GET', '/branding', 'owner@acme.test'],
    ['GET', '/audit-log', 'owner@acme.test'],
    ['GET', '/audit-log/export', 'owner@acme.test'],
    ['GET', '/accounts/developer', 'owner@acme.test'],
    ['GET', '/sso', 'owner@acme.test'],
    ['GET', '/sms', 'owner@acme.test'],
    ['GET', '/logging', 'owner@acme.test'],
    ['GET', '/customer-lookup', 'owner@acme.test'],
    ['GET', '/results/customer?customerRef=CUST-100042', 'owner@acme.test'],
    ['GET', '/watch-tower/accounts', 'staff@provider.test'],
    ['PUT', '/branding', 'owner@acme.test', { name: '' }],
    ['GET', '/admins/bootstrap', undefined],
    ['GET', '/no-such-thing', 'owner@acme.test'],
  ];

  it.each(calls)('%s %s carries nosniff and no-store, whatever the status', async (method, path, as, body) => {
    const res = await t.call(method, path, { as, body });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
