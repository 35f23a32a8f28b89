import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { validate, compileErrors } from '@readme/openapi-parser';
import { DATABASE_KINDS, useTestContext } from './helpers';

type Operation = { operationId: string; description?: string; tags: string[]; requestBody?: { content: { 'application/json': { schema: Schema } } }; responses: Record<string, { description: string }> };
type Schema = { required?: string[]; properties?: Record<string, Record<string, unknown>>; oneOf?: Schema[] };
type Document = { info: Record<string, unknown>; tags: { name: string; description: string }[]; paths: Record<string, Record<string, Operation>> };

const operations = (doc: Document) => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ method, path: p, op })));
const ANY_ID = '00000000-0000-4000-8000-000000000000';

/** Spectral (the CLI, as a CI would run it) with the spectral:oas ruleset: every result, any severity. */
async function spectral(doc: unknown): Promise<{ code: string; severity: number; message: string; path: string[] }[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spectral-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const bin = path.resolve('node_modules/.bin/spectral');
    const run = await promisify(execFile)(bin, ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'], { cwd: dir, encoding: 'utf8' }).catch((err: { stdout: string }) => err);
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
    key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string }).secretKey;
  });
  const v1 = (method: string, p: string, body?: string) =>
    t.app.request(`/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });

  it('is a valid OpenAPI 3.1 document by an independent validator', async () => {
    const doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as Record<string, unknown>;
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('describes every /api/v1 route the server answers', async () => {
    const doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const served = t.app.routes
      .filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL' && !['/api/v1/openapi.json', '/api/v1/docs'].includes(r.path))
      .map((r) => `${r.method.toLowerCase()} ${r.path.slice('/api/v1'.length).replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(served.length).toBeGreaterThanOrEqual(4);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
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
    expect(doc.info).toMatchObject({ contact: { name: 'Switchboard', url: expect.any(String) }, license: { name: expect.any(String), url: expect.stringMatching(/\/terms$/) } });
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
    for (const refused of [{ phoneNumber }, { phoneNumber, productId: 'prod_1', amount: 5 }, { phoneNumber, amount: 5 }, { phoneNumber, productId: 'prod_1', currency: 'usd' }]) {
      const res = await v1('POST', '/payments', JSON.stringify(refused));
      expect(res.status, JSON.stringify(refused)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { productId: expect.stringContaining('Give a productId, or an amount') } });
    }
  });

  it('every operation that takes a body documents 400 INVALID_BODY, and the server answers it to malformed JSON', async () => {
    for (const { method, path: p, op } of operations(doc)) {
      if (!op.requestBody) continue;
      expect(op.responses['400']!.description, `${method} ${p}`).toContain('INVALID_BODY');
      const res = await v1(method.toUpperCase(), p.replace(/\{[a-zA-Z]+\}/g, ANY_ID), '{"phoneNumber": ');
      expect(res.status, `${method} ${p}`).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_BODY' });
    }
  });

  it("Identity Verification's start documents the 404 an account that cannot use it gets, and the server answers it", async () => {
    expect(doc.paths['/idv/sessions']!.post!.responses['404']!.description).toMatch(/^NOT_FOUND: This account cannot use Identity Verification/);
    const res = await v1('POST', '/idv/sessions', JSON.stringify({ customerRef: 'CUST-1', phoneNumber: '+14155550100' }));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
