import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { json, LOOPBACK_CERT, startPeer, type Peer } from './peers';
import type { Config } from '../../api/config';

const API_KEY = 'lookup-header-secret-123';

const CUSTOMERS = [
  {
    ref: { id: 'c-1' },
    name: { first: 'Ada', last: 'Lovelace' },
    plan: 'gold',
    phones: [{ type: 'mobile', number: '+447700900123' }],
  },
  {
    ref: { id: 'c-2' },
    name: { first: 'Alan', last: 'Turing' },
    plan: 'silver',
    phones: [{ type: 'home', number: '+447700900123' }],
  },
];

/** A customer API with GET (phone in the query) and POST (phone in a JSON body), behind a header. */
async function customerApi(): Promise<Peer> {
  return startPeer(
    (req, res) => {
      // an endpoint that quotes the request back in its error
      if (req.path === '/echo') return json(res, 500, { error: `refused key ${req.headers['x-api-key']}` });
      if (req.path === '/echo-ok')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`{"you":{"sent":"key ${req.headers['x-api-key']}"},"n":1}`);
      if (req.headers['x-api-key'] !== API_KEY) return json(res, 401, { error: 'bad key' });
      if (req.method === 'GET' && req.path === '/customers') {
        const phone = req.query.get('phoneNumber');
        return json(res, 200, { data: { results: [{ customers: phone === '+447700900123' ? CUSTOMERS : [] }] } });
      }
      if (req.method === 'POST' && req.path === '/search') {
        if (req.headers['content-type'] !== 'application/json') return json(res, 415, {});
        const { phoneNumber } = JSON.parse(req.body);
        return json(res, 200, { matches: phoneNumber === '+447700900123' ? CUSTOMERS : [] });
      }
      // Raw text: ids past 2^53 that JSON.stringify could not even write.
      if (req.path === '/big-ids')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('[{"id":634866135153775564,"n":{"id":9007199254740993}},{"id":"x-2","n":{"id":1.50}}]');
      if (req.path === '/broken') return json(res, 500, { error: 'database down' });
      if (req.path === '/html') return void res.end('<html>hi</html>');
      if (req.path === '/redirect') return void res.writeHead(302, { location: 'http://10.0.0.1/customers' }).end();
      json(res, 404, {});
    },
    { tls: true },
  );
}

describe.each(DATABASE_KINDS)('customer lookup (%s)', (kind) => {
  let api: Peer;
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    api = await customerApi();
    overrides.outboundAllowHosts = [api.host];
    overrides.outboundCa = LOOPBACK_CERT;
  });
  afterAll(() => api.close());
  const t = useTestContext(kind, overrides);

  const settings = () => ({
    url: `${api.url}/customers`,
    method: 'GET',
    headers: [{ key: 'X-Api-Key', value: API_KEY }],
    customerPath: 'data.results.0.customers',
    customerId: 'ref.id',
    titleTemplate: '{name.first} {name.last}',
    descriptionTemplate: 'Plan: {plan}, {phones.#(type=="mobile").number}',
  });

  it('nothing is configured at first', async () => {
    expect(await (await t.call('GET', '/customer-lookup', { as: 'admin@acme.test' })).json()).toEqual({ settings: null });
  });

  it('fields are checked with the messages of the form', async () => {
    const res = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: {
        url: 'not a url',
        method: 'GET',
        headers: [{ key: '', value: '' }],
        customerPath: '',
        customerId: '',
        titleTemplate: '',
        descriptionTemplate: '',
      },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({
      url: 'URL must be a valid URL.',
      'headers.0.key': 'Header name is required',
      'headers.0.value': 'Value is required',
      customerPath: 'Customers array path is required',
      customerId: 'Customer ID path is required',
      titleTemplate: 'Title template is required',
      descriptionTemplate: 'Description template is required',
    });
  });

  it('a URL that is not https is refused with "URL must start with https://"', async () => {
    const res = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: { ...settings(), url: 'http://crm.example.com/x' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ url: 'URL must start with https://' });
  });

  it('an upper-case HTTPS:// scheme is https', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url: `${api.url}/customers`.replace('https://', 'HTTPS://'), phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).customers).toHaveLength(2);
  });

  it('at most three headers', async () => {
    const headers = [1, 2, 3, 4].map((i) => ({ key: `X-H${i}`, value: 'v' }));
    const res = await t.call('POST', '/customer-lookup', { as: 'admin@acme.test', body: { ...settings(), headers } });
    expect((await res.json()).fields).toEqual({ headers: 'You can add up to 3 headers' });
  });

  it('an unsupported GJSON path is refused with what is not supported', async () => {
    const res = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: { ...settings(), customerPath: 'data.results.[0]' },
    });
    expect((await res.json()).fields).toEqual({ customerPath: 'Multipaths ({...} or [...]) are not supported.' });
  });

  it('saving answers the settings with header names only, values encrypted', async () => {
    const res = await t.call('POST', '/customer-lookup', { as: 'admin@acme.test', body: settings() });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(API_KEY);
    const { headers, ...rest } = settings();
    expect(JSON.parse(text)).toEqual({ settings: { ...rest, headerKeys: ['X-Api-Key'] } });
    const row = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('customer_lookup').selectAll().executeTakeFirstOrThrow(),
    );
    expect(JSON.stringify(row)).not.toContain(API_KEY);
    expect(headers).toHaveLength(1);
  });

  it('GET never shows header values', async () => {
    const text = await (await t.call('GET', '/customer-lookup', { as: 'admin@acme.test' })).text();
    expect(text).not.toContain(API_KEY);
    expect(JSON.parse(text).settings.headerKeys).toEqual(['X-Api-Key']);
  });

  it('re-saving without a header value keeps the saved value; a new header needs one', async () => {
    const keep = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: { ...settings(), headers: [{ key: 'X-Api-Key' }], titleTemplate: '{name.last}' },
    });
    expect(keep.status).toBe(200);
    const fresh = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: { ...settings(), headers: [{ key: 'X-Other' }] },
    });
    expect(fresh.status).toBe(400);
    expect((await fresh.json()).fields).toEqual({ 'headers.0.value': 'Value is required' });
    // the kept value still works: the test call goes through with it
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), headers: [{ key: 'X-Api-Key' }], phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['another host', 'https://lookup.attacker.example/customers'],
    ['another path on the same host', '/search'],
  ])('with %s, blank header values are required again and nothing is sent', async (_what, where) => {
    const url = where.startsWith('/') ? `${api.url}${where}` : where;
    api.received.length = 0;
    const test = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url, headers: [{ key: 'X-Api-Key' }], phoneNumber: '+447700900123' },
    });
    expect(test.status).toBe(400);
    expect((await test.json()).fields).toEqual({ 'headers.0.value': 'Value is required' });
    const save = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: { ...settings(), url, headers: [{ key: 'X-Api-Key' }] },
    });
    expect(save.status).toBe(400);
    expect((await save.json()).fields).toEqual({ 'headers.0.value': 'Value is required' });
    expect(api.received).toHaveLength(0);
    expect((await (await t.call('GET', '/customer-lookup', { as: 'admin@acme.test' })).json()).settings.url).toBe(
      `${api.url}/customers`,
    );
  });

  it.each([
    ['a line feed', 'abc\nX-Injected: yes'],
    ['a carriage return', 'abc\rdef'],
    ['a NUL', 'abc\u0000def'],
  ])('a header value containing %s is refused at the contract', async (_what, value) => {
    api.received.length = 0;
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), headers: [{ key: 'X-Api-Key', value }], phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ 'headers.0.value': 'Must not contain line breaks or other control characters' });
    expect(api.received).toHaveLength(0);
  });

  it('an endpoint that quotes the header back: the test error never shows the value', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url: `${api.url}/echo`, phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string };
    expect(body.message).toMatch(/^The endpoint answered 500/);
    expect(body.message).not.toContain(API_KEY);
  });

  it('the test calls the endpoint with GET and the phone number as a query parameter', async () => {
    api.received.length = 0;
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).customers).toEqual([
      { id: 'c-1', title: 'Ada Lovelace', description: 'Plan: gold, +447700900123' },
      { id: 'c-2', title: 'Alan Turing', description: 'Plan: silver, ' },
    ]);
    expect(api.received[0].method).toBe('GET');
    expect(api.received[0].query.get('phoneNumber')).toBe('+447700900123');
    expect(api.received[0].headers['x-api-key']).toBe(API_KEY);
  });

  it('the test calls the endpoint with POST and the phone number in a JSON body', async () => {
    api.received.length = 0;
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: {
        ...settings(),
        url: `${api.url}/search`,
        method: 'POST',
        customerPath: 'matches.#(plan=="gold")#',
        phoneNumber: '+447700900123',
      },
    });
    expect((await res.json()).customers).toEqual([
      { id: 'c-1', title: 'Ada Lovelace', description: 'Plan: gold, +447700900123' },
    ]);
    expect(api.received[0].method).toBe('POST');
    expect(JSON.parse(api.received[0].body)).toEqual({ phoneNumber: '+447700900123' });
  });

  it('large numeric ids and numbers in templates come back with every digit', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: {
        ...settings(),
        url: `${api.url}/big-ids`,
        customerPath: '@this',
        customerId: 'id',
        titleTemplate: 'Account {n.id}',
        descriptionTemplate: '{id}',
        phoneNumber: '+447700900123',
      },
    });
    expect((await res.json()).customers).toEqual([
      { id: '634866135153775564', title: 'Account 9007199254740993', description: '634866135153775564' },
      { id: 'x-2', title: 'Account 1.50', description: 'x-2' },
    ]);
  });

  it('no customers found is an empty list', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), phoneNumber: '+15550000000' },
    });
    expect((await res.json()).customers).toEqual([]);
  });

  it('a wrong customers path finds nothing rather than failing', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), customerPath: 'data.nothing', phoneNumber: '+447700900123' },
    });
    expect((await res.json()).customers).toEqual([]);
  });

  it('the test answers the sample as the endpoint sent it, beside the customers of a full configuration', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url: `${api.url}/big-ids`, customerPath: '@this', customerId: 'id', phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.customers).toHaveLength(2);
    expect(body.missing).toEqual([]);
    // text, not parsed JSON: the long ids keep every digit
    expect(body.sample).toBe('[{"id":634866135153775564,"n":{"id":9007199254740993}},{"id":"x-2","n":{"id":1.50}}]');
  });

  it('with the paths not chosen yet, the test fetches the sample answer to pick them from', async () => {
    api.received.length = 0;
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: {
        url: `${api.url}/customers`,
        method: 'GET',
        headers: [{ key: 'X-Api-Key', value: API_KEY }],
        customerPath: '',
        customerId: ' ',
        phoneNumber: '+447700900123',
      },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.customers).toBeUndefined();
    expect(body.missing).toEqual(['customerPath', 'customerId', 'titleTemplate', 'descriptionTemplate']);
    expect(JSON.parse(body.sample)).toEqual({ data: { results: [{ customers: CUSTOMERS }] } });
    expect(api.received).toHaveLength(1);
  });

  it('a sample that quotes a header value back never shows it', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: {
        url: `${api.url}/echo-ok`,
        method: 'GET',
        headers: [{ key: 'X-Api-Key', value: API_KEY }],
        phoneNumber: '+447700900123',
      },
    });
    expect(res.status).toBe(200);
    const { sample } = await res.json();
    expect(sample).not.toContain(API_KEY);
    expect(JSON.parse(sample)).toEqual({ you: { sent: 'key [redacted]' }, n: 1 });
  });

  it('a path that is typed while others are blank is still checked (400, not a call)', async () => {
    api.received.length = 0;
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: {
        url: `${api.url}/customers`,
        method: 'GET',
        headers: [{ key: 'X-Api-Key', value: API_KEY }],
        customerPath: 'a.{b}',
        customerId: 7,
        phoneNumber: '+447700900123',
      },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.fields).sort()).toEqual(['customerId', 'customerPath']);
    expect(api.received).toHaveLength(0);
  });

  it('saving still needs every path: a blank one is refused with its SPEC message', async () => {
    const res = await t.call('POST', '/customer-lookup', { as: 'admin@acme.test', body: { ...settings(), customerPath: '' } });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ customerPath: 'Customers array path is required' });
  });

  it.each([
    ['/broken', 'The endpoint answered 500'],
    ['/html', 'The endpoint did not answer with JSON.'],
  ])('a failing endpoint (%s) answers LOOKUP_FAILED with the reason', async (path, message) => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url: `${api.url}${path}`, phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.code).toBe('LOOKUP_FAILED');
    expect(body.message).toContain(message);
  });

  it('a wrong header value is reported as the endpoint refusing', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), headers: [{ key: 'X-Api-Key', value: 'nope' }], phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toContain('The endpoint answered 401');
  });

  it.each([
    'https://127.0.0.1/customers',
    'https://127.0.0.1:9/customers',
    'https://[::ffff:127.0.0.1]/customers',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.5/customers',
    'https://[fd00:ec2::254]/',
  ])('SSRF: %s is refused with 422 TARGET_NOT_ALLOWED', async (url) => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url, phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
  });

  it('SSRF: a redirect to a private address is not followed', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), url: `${api.url}/redirect`, phoneNumber: '+447700900123' },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toMatch(/redirect/);
  });

  it('the test needs a phone number with its country code, said in plain words', async () => {
    const res = await t.call('POST', '/customer-lookup/test', {
      as: 'admin@acme.test',
      body: { ...settings(), phoneNumber: '0770' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ phoneNumber: 'Enter the number with its country code, e.g. +44 20 7946 0018' });
  });

  it('saving empty values removes the settings', async () => {
    const res = await t.call('POST', '/customer-lookup', {
      as: 'admin@acme.test',
      body: { url: '', method: 'GET', headers: [], customerPath: '', customerId: '', titleTemplate: '', descriptionTemplate: '' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ settings: null });
    expect(await (await t.call('GET', '/customer-lookup', { as: 'admin@acme.test' })).json()).toEqual({ settings: null });
    const events = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('audit_log').select('event').where('event', 'like', 'customer-lookup.%').orderBy('id').execute(),
    );
    expect(events.map((e) => e.event)).toEqual(['customer-lookup.saved', 'customer-lookup.saved', 'customer-lookup.removed']);
  });

  it('DELETE removes the settings', async () => {
    await t.call('POST', '/customer-lookup', { as: 'admin@acme.test', body: settings() });
    const res = await t.call('DELETE', '/customer-lookup', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(await (await t.call('GET', '/customer-lookup', { as: 'admin@acme.test' })).json()).toEqual({ settings: null });
  });

  it('a supervisor cannot use customer lookup settings', async () => {
    expect((await t.call('GET', '/customer-lookup', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('POST', '/customer-lookup/test', { as: 'supervisor@acme.test', body: {} })).status).toBe(403);
  });
});
