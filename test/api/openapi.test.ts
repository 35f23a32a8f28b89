import { describe, expect, it } from 'vitest';
import { validate, compileErrors } from '@readme/openapi-parser';
import { DATABASE_KINDS, useTestContext } from './helpers';

describe.each(DATABASE_KINDS)('OpenAPI document of /api/v1 (%s)', (kind) => {
  const t = useTestContext(kind);

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
});
