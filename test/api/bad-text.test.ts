import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';

// Text the database cannot store (NUL, a lone surrogate) and keys that only look right (an
// impossible date) must be refused by the contract with 400, on every route and every text
// field, never reach the database as a 500.

const ADMIN = 'admin@acme.test';
const STAFF = 'staff@provider.test';
const BAD = { NUL: 'a\u0000b', 'a lone surrogate': 'a\uD800b' } as const;

type Body = Record<string, unknown>;
/** A route, a valid body, and the dotted paths of its text fields. */
type JsonCase = { method: string; path: string; as?: string; body: Body; fields: string[] };

const lookup = {
  url: 'https://lookup.example.com/customers',
  method: 'GET',
  headers: [{ key: 'X-Api-Key', value: 'secret' }],
  customerPath: 'customers',
  customerId: 'id',
  titleTemplate: '{name}',
  descriptionTemplate: '{plan}',
};
const sso = {
  discoveryUrl: 'https://idp.example.com',
  domain: 'acme.test',
  clientId: 'client',
  clientSecret: 'secret',
  adminGroupId: 'a',
  agentGroupId: 'b',
};

const JSON_CASES: JsonCase[] = [
  { method: 'PUT', path: '/branding', body: { name: 'Acme', logo: '', color: '#000000' }, fields: ['name', 'logo', 'color'] },
  { method: 'PUT', path: '/branding/domain', body: { domain: 'console.acme.com' }, fields: ['domain'] },
  {
    method: 'POST',
    path: '/customer-lookup',
    body: lookup,
    fields: ['url', 'headers.0.key', 'headers.0.value', 'customerPath', 'customerId', 'titleTemplate', 'descriptionTemplate'],
  },
  {
    method: 'POST',
    path: '/customer-lookup/test',
    body: { ...lookup, phoneNumber: '+447700900123' },
    fields: ['url', 'titleTemplate', 'phoneNumber'],
  },
  {
    method: 'POST',
    path: '/logging',
    body: { destination: 'datadog', datadog: { apiKey: 'k', site: 'us1' } },
    fields: ['datadog.apiKey'],
  },
  {
    method: 'POST',
    path: '/logging',
    body: { destination: 'cloudwatch', cloudwatch: { accessKeyId: 'a', secretAccessKey: 's', logGroup: 'g' } },
    fields: ['cloudwatch.accessKeyId', 'cloudwatch.secretAccessKey', 'cloudwatch.logGroup'],
  },
  {
    method: 'POST',
    path: '/logging',
    body: { destination: 'sumologic', sumologic: { collectorUrl: 'https://collectors.example.com/x' } },
    fields: ['sumologic.collectorUrl'],
  },
  {
    method: 'POST',
    path: '/logging/test',
    body: { destination: 'rapid7', rapid7: { webhookUrl: 'https://rapid7.example.com/x' } },
    fields: ['rapid7.webhookUrl'],
  },
  {
    method: 'POST',
    path: '/sms',
    body: { provider: 'twilio', twilio: { accountSid: 'AC1', authToken: 't', phoneNumber: '+15550001111' } },
    fields: ['twilio.accountSid', 'twilio.authToken', 'twilio.phoneNumber'],
  },
  {
    method: 'POST',
    path: '/sso',
    body: { provider: 'azure', azure: sso },
    fields: [
      'azure.discoveryUrl',
      'azure.domain',
      'azure.clientId',
      'azure.clientSecret',
      'azure.adminGroupId',
      'azure.agentGroupId',
    ],
  },
  { method: 'POST', path: '/sso', body: { provider: 'okta', okta: { ...sso, tenant: 'acme' } }, fields: ['okta.tenant'] },
  { method: 'POST', path: '/invitations', body: { email: 'new@acme.test' }, fields: ['email'] },
  { method: 'DELETE', path: '/invitations', body: { email: 'new@acme.test' }, fields: ['email'] },
  { method: 'POST', path: '/notifications/read', body: { id: '00000000-0000-4000-8000-000000000000' }, fields: ['id'] },
  {
    method: 'POST',
    path: '/watch-tower/ghost-mode',
    as: STAFF,
    body: { accountId: '00000000-0000-4000-8000-000000000000' },
    fields: ['accountId'],
  },
  { method: 'POST', path: '/sso/oauth/authorize', body: { email: 'someone@acme.test' }, fields: ['email'] },
  {
    method: 'POST',
    path: '/sso/oauth/callback',
    body: { code: 'c', state: 's', iss: 'https://idp.example.com' },
    fields: ['code', 'state', 'iss'],
  },
  { method: 'POST', path: '/oauth/google/callback', body: { code: 'c', state: 's' }, fields: ['code', 'state'] },
  { method: 'POST', path: '/zoom/context', body: { context: 'abc' }, fields: ['context'] },
  { method: 'POST', path: '/webex/authenticate', body: { accessToken: 'abc' }, fields: ['accessToken'] },
];

function withValue(body: Body, path: string, value: string): Body {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let at: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[keys.at(-1)!] = value;
  return copy;
}

/** Query and path parameters, written as the browser would send them. */
const queryCases = (bad: string) => [
  { method: 'GET', path: `/results/customer?customerRef=a${bad}` },
  { method: 'GET', path: `/audit-log?limit=5${bad}` },
  { method: 'GET', path: `/audit-log/export?timezone=Europe%2FLondon${bad}` },
  { method: 'GET', path: `/watch-tower/accounts?q=a${bad}`, as: STAFF },
  { method: 'GET', path: `/watch-tower/statistics/account?accountId=a${bad}`, as: STAFF },
];
const URL_CASES: { method: string; path: string; as?: string }[] = [
  ...queryCases('%00'),
  ...[
    '2024-02-30T10:00:00.000000Z_1',
    '0000-01-01T00:00:00.000000Z_1',
    '2024-13-01T00:00:00.000000Z_1',
    '2024-01-01T24:00:00.000000Z_1',
    'x%00',
  ].flatMap((key) => [
    { method: 'GET', path: `/audit-log?lastKey=${key}` },
    { method: 'GET', path: `/audit-log/export?lastKey=${key}` },
  ]),
];
/**
 * Path parameters, and percent-escapes that are not UTF-8 (kept as typed, so a search for them
 * is an ordinary search): refused as not found or not valid, or answered, never a 500.
 */
const PARAM_CASES: { method: string; path: string; as?: string; body?: Body }[] = [
  { method: 'GET', path: '/auth/azure/callback?code=c&state=a%00b' },
  ...queryCases('%ED%A0%80'),
  ...queryCases('%FF'),
  { method: 'PUT', path: '/admins/a%00b/role', body: { role: 'admin' } },
  { method: 'DELETE', path: '/admins/a%00b' },
  { method: 'PUT', path: '/invitations/a%00b/role', body: { role: 'admin' } },
  { method: 'GET', path: '/watch-tower/accounts/a%00b', as: STAFF },
  { method: 'PUT', path: '/watch-tower/accounts/a%00b/apps/otp/status', as: STAFF, body: { status: 'enterprise' } },
  { method: 'POST', path: '/a%00b/billing/free-trial', body: {} },
];

describe.each(DATABASE_KINDS)('text the database cannot store is refused with 400 (%s)', (kind) => {
  const t = useTestContext(kind);

  for (const c of JSON_CASES) {
    for (const field of c.fields) {
      for (const [name, value] of Object.entries(BAD)) {
        it(`${c.method} ${c.path} with ${name} in ${field}`, async () => {
          const res = await t.call(c.method, c.path, { as: c.as ?? ADMIN, body: withValue(c.body, field, value) });
          expect(res.status).toBe(400);
          expect((await res.json()).code).toBe('VALIDATION_FAILED');
        });
      }
    }
  }

  it.each(URL_CASES.map((c) => [`${c.method} ${c.path}`, c] as const))('%s', async (_, c) => {
    const res = await t.call(c.method, c.path, { as: c.as ?? ADMIN });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('VALIDATION_FAILED');
  });

  const APPS = ['one-time-passcode', 'passkeys', 'e-form', 'payments', 'document-signature', 'identity-verification'];
  it.each([
    ...APPS.flatMap((app) => [`/${app}/tasks?q=a%00b`, `/${app}/tasks?agent=%00`]),
    '/e-form/submissions?q=%00',
    // a route that reads no query at all: the rule is in front of every route, not in each one
    '/health?anything=%00',
  ])('GET %s answers 400 VALIDATION_FAILED', async (path) => {
    const res = await t.call('GET', path, { as: ADMIN });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('a NUL in the SMS test message answers 400', async () => {
    const res = await t.call('POST', '/one-time-passcode/settings/sms-content/test', {
      as: ADMIN,
      body: { message: 'a\u0000b', phoneNumber: '+14155550100' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it.each([
    ['/otp/send', { phoneNumber: '+14155550100', customerRef: 'a\u0000b' }],
    ['/passkeys/enrollments', { phoneNumber: '+14155550100', customerRef: 'a\u0000b' }],
    ['/passkeys/enrollments', { phoneNumber: '+14155550100', customerRef: 'c', agent: 'a\uD800b' }],
    ['/payments', { phoneNumber: '+14155550100', amount: 100, description: 'a\u0000b' }],
  ])('POST /api/v1%s with text that cannot be stored answers 400 and sends nothing', async (path, body) => {
    const key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
    const res = await t.call('POST', `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: expect.any(Object) });
  });

  it.each(PARAM_CASES.map((c) => [`${c.method} ${c.path}`, c] as const))('%s is not a 500', async (_, c) => {
    const res = await t.call(c.method, c.path, { as: c.as ?? ADMIN, body: c.body });
    expect(res.status).toBeLessThan(500);
  });
});
