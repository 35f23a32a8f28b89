import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { validate, compileErrors } from '@readme/openapi-parser';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { checkedV1Fetch, v1Contract } from '../support/openapi-contract';

type Operation = {
  operationId: string;
  description?: string;
  tags: string[];
  requestBody?: { required?: boolean; content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};
type Schema = { required?: string[]; properties?: Record<string, Record<string, unknown>>; oneOf?: Schema[] };
type Document = {
  info: Record<string, unknown>;
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
};

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ method, path: p, op })));
const ANY_ID = '00000000-0000-4000-8000-000000000000';

/** Spectral (the CLI, as a CI would run it) with the spectral:oas ruleset: every result, any severity. */
async function spectral(doc: unknown): Promise<{ code: string; severity: number; message: string; path: string[] }[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spectral-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const bin = path.resolve('node_modules/.bin/spectral');
    const run = await promisify(execFile)(
      bin,
      ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
      { cwd: dir, encoding: 'utf8' },
    ).catch((err: { stdout: string }) => err);
    return JSON.parse(run.stdout || '[]');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(DATABASE_KINDS)('OpenAPI document of /api/v1 (%s)', (kind) => {
  const t = useTestContext(kind);
  let doc: Document;
  let key: string;
  beforeAll(async () => {
    doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as Document;
    key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
  });
  const v1 = (method: string, p: string, body?: string) =>
    t.app.request(`/api/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });

  it('is a valid OpenAPI 3.1 document by an independent validator', async () => {
    const doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as Record<string, unknown>;
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('describes every /api/v1 route the server answers', async () => {
    const doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const served = t.app.routes
      .filter(
        (r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL' && !['/api/v1/openapi.json', '/api/v1/docs'].includes(r.path),
      )
      .map((r) => `${r.method.toLowerCase()} ${r.path.slice('/api/v1'.length).replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(served.length).toBeGreaterThanOrEqual(4);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it('has a readable reference page without scripts', async () => {
    const res = await t.call('GET', '/v1/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('POST /api/v1/otp/send');
    expect(html).not.toContain('<script');
  });

  it("passes Spectral's spectral:oas ruleset with no errors and no warnings (nor infos or hints)", async () => {
    const results = await spectral(doc);
    expect(results.map((r) => `${r.severity} ${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, 60_000);

  it('every operation has a description and a tag defined at the top level with its own description; info names a contact and a license', () => {
    const tags = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
    for (const { method, path: p, op } of operations(doc)) {
      expect(op.description, `${method} ${p}`).toMatch(/\w{3}/);
      expect(tags.get(op.tags[0]!), `${method} ${p}`).toMatch(/\w{3}/);
    }
    expect(doc.info).toMatchObject({
      contact: { name: 'Switchboard', url: expect.any(String) },
      license: { name: expect.any(String), url: expect.stringMatching(/\/terms$/) },
    });
  });

  it('every field the document requires, the server requires: an empty body is refused naming each one, and no required field has a default', async () => {
    for (const { method, path: p, op } of operations(doc)) {
      const schema = op.requestBody?.content['application/json'].schema;
      if (!schema) continue;
      const required = schema.required ?? [];
      for (const name of required) expect(schema.properties![name]!.default, `${p} ${name}`).toBeUndefined();
      const res = await v1(method.toUpperCase(), p.replace(/\{[a-zA-Z]+\}/g, ANY_ID), '{}');
      if (required.length) {
        expect(res.status, `${method} ${p}`).toBe(400);
        const answer = (await res.json()) as { code: string; fields: Record<string, string> };
        expect(answer.code).toBe('VALIDATION_FAILED');
        expect(Object.keys(answer.fields).sort(), `${method} ${p}`).toEqual(expect.arrayContaining(required));
      } else if (schema.oneOf) {
        // one of several keys is required (a caller by phoneNumber or customerRef): {} fits no branch
        expect(res.status, `${method} ${p}`).toBe(400);
      } else {
        // nothing required: the body passes, and the unknown id is what is refused
        expect(res.status, `${method} ${p}`).toBe(404);
      }
    }
  });

  it("payments' body is a productId or an amount with its description (oneOf), as the server decides", async () => {
    const body = doc.paths['/payments']!.post!.requestBody!.content['application/json'].schema;
    expect(body.oneOf).toEqual([
      { required: ['productId'], properties: { productId: {}, amount: false, currency: false } },
      { required: ['amount', 'description'], properties: { amount: {}, description: {}, productId: false } },
    ]);
    const phoneNumber = '+14155550100';
    for (const refused of [
      { phoneNumber },
      { phoneNumber, productId: 'prod_1', amount: 5 },
      { phoneNumber, amount: 5 },
      { phoneNumber, productId: 'prod_1', currency: 'usd' },
    ]) {
      const res = await v1('POST', '/payments', JSON.stringify(refused));
      expect(res.status, JSON.stringify(refused)).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: { productId: expect.stringContaining('Give a productId, or an amount') },
      });
    }
  });

  it('every operation that takes a body documents 400 INVALID_BODY, and the server answers it to malformed JSON', async () => {
    // the key's burst (40) is shared with the tests before; the bucket refills on the server's clock
    t.clock.now = new Date(t.clock.now.getTime() + 5_000);
    for (const { method, path: p, op } of operations(doc)) {
      if (!op.requestBody) continue;
      expect(op.responses['400']!.description, `${method} ${p}`).toContain('INVALID_BODY');
      const res = await v1(method.toUpperCase(), p.replace(/\{[a-zA-Z]+\}/g, ANY_ID), '{"phoneNumber": ');
      expect(res.status, `${method} ${p}`).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_BODY' });
    }
  });

  it("Identity Verification's start documents the 404 an account that cannot use it gets, and the server answers it", async () => {
    t.clock.now = new Date(t.clock.now.getTime() + 5_000);
    expect(doc.paths['/idv/sessions']!.post!.responses['404']!.description).toMatch(
      /^NOT_FOUND: This account cannot use Identity Verification/,
    );
    const res = await v1('POST', '/idv/sessions', JSON.stringify({ customerRef: 'CUST-1', phoneNumber: '+14155550100' }));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
  it('a request body is required only where the server requires one: cancel and resend take none', async () => {
    t.clock.now = new Date(t.clock.now.getTime() + 5_000);
    for (const p of ['/otp/{id}/cancel', '/signatures/{id}/cancel', '/signatures/{id}/resend', '/idv/sessions/{id}/cancel'])
      expect(doc.paths[p]!.post!.requestBody!.required, p).toBe(false);
    // the per-key rate limit (bursts of 40) is shared with the other tests: the bodies that may be
    // left out, and one that may not
    for (const { method, path: p, op } of operations(doc)) {
      if (!op.requestBody || (op.requestBody.required && p !== '/otp/send')) continue;
      // no body at all (no content type either), as a client that needs none sends it
      const res = await t.app.request(`/api/v1${p.replace(/\{[a-zA-Z]+\}/g, ANY_ID)}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${key}` },
      });
      if (op.requestBody.required) {
        expect(res.status, `${method} ${p}`).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      } else {
        // the body is not what is refused: the unknown id is
        expect(res.status, `${method} ${p}`).toBe(404);
      }
    }
  });

  it('every answer from /api/v1 is held to the document with its schemas closed: an undocumented field or status fails the test that received it', async () => {
    const contract = v1Contract();
    // the key's burst is spent by the tests before: its bucket refills on the server's clock
    t.clock.now = new Date(t.clock.now.getTime() + 5_000);
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    const res = await v1('POST', `/otp/${ANY_ID}/cancel`);
    const body = await res.text();
    expect(res.status).toBe(404);
    expect(contract.check('POST', `/otp/${ANY_ID}/cancel`, 404, 'application/json', body)).toBeNull();
    // a field the code would add without documenting it
    const added = JSON.stringify({ ...JSON.parse(body), hint: 'not in the document' });
    expect(contract.check('POST', `/otp/${ANY_ID}/cancel`, 404, 'application/json', added)).toMatch(
      /does not match the document \(closed\).*unevaluated properties/,
    );
    // a status the operation does not list
    expect(contract.check('POST', `/otp/${ANY_ID}/cancel`, 418, 'application/json', body)).toMatch(
      /answered 418, which the document does not list/,
    );
    // the same holds inside an answer's nested objects, and for a success: a passcode as sent, with one field more
    const sent = (await (await v1('POST', '/otp/send', JSON.stringify({ phoneNumber: '+14155550123' }))).json()) as {
      id: string;
    };
    const read = await (await v1('GET', `/otp/${sent.id}`)).text();
    expect(contract.check('GET', `/otp/${sent.id}`, 200, 'application/json', read)).toBeNull();
    expect(
      contract.check(
        'GET',
        `/otp/${sent.id}`,
        200,
        'application/json',
        JSON.stringify({ ...JSON.parse(read), internalNote: 'x' }),
      ),
    ).toMatch(/unevaluated properties/);
    // the test apps' fetch is wrapped with it: such an answer throws where the test reads it
    const lying = checkedV1Fetch(
      async (_request: Request) => new Response(added, { status: 404, headers: { 'content-type': 'application/json' } }),
    );
    await expect(lying(new Request(`http://localhost/api/v1/otp/${ANY_ID}/cancel`, { method: 'POST' }))).rejects.toThrow(
      /OpenAPI contract: POST \/otp\/\{id\}\/cancel 404 does not match/,
    );
  });

  it('the published document stays open to additions: no answer schema forbids fields it does not name', () => {
    const closedSomewhere = (schema: unknown): boolean =>
      !!schema &&
      typeof schema === 'object' &&
      ((schema as Record<string, unknown>).additionalProperties === false ||
        (schema as Record<string, unknown>).unevaluatedProperties === false ||
        Object.values(schema).some(closedSomewhere));
    for (const { method, path: p, op } of operations(doc)) {
      for (const [status, answer] of Object.entries(op.responses))
        expect(closedSomewhere(answer.content?.['application/json']?.schema), `${method} ${p} ${status}`).toBe(false);
    }
  });
});
