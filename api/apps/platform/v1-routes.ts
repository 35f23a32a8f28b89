import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { ApiError } from '../../http/errors';
import { documented, validationError } from '../../http/validate';
import { assertStorableInput } from '../../http/text-guard';
import { ErrorBodySchema } from '../../contract/common';
import { IDEMPOTENCY_HEADER } from '../../contract/platform';
import { BURST_SECONDS, DEFAULT_API_RATE_LIMIT, RATE_LIMIT_POLICY } from '../../contract/api-limits';
import { appModules } from './registry';
import { idempotency, rateLimit, requireApiKey, V1_RATE_LIMIT, type V1Env, type RateLimit } from './v1-guards';
import type { V1Operation } from './v1-spec';

export function v1Operations(): V1Operation[] {
  return appModules().flatMap((m) => m.v1 ?? []);
}

function parse<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  assertStorableInput(value);
  const result = v.safeParse(schema, value);
  if (!result.success) throw validationError(result.issues);
  return result.output;
}

async function jsonBody(text: string): Promise<unknown> {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'INVALID_BODY', 'The body is not valid JSON.');
  }
}

/** /api/v1: the secret key, the per-key rate limit and Idempotency-Key in front of every operation. */
export function v1Routes(options: { rateLimit?: RateLimit } = {}) {
  const api = new Hono<V1Env>();
  api.get('/openapi.json', (c) => c.json(openApiDocument(c.var.deps.config.publicUrl)));
  api.get('/docs', (c) => c.html(referencePage(openApiDocument(c.var.deps.config.publicUrl))));
  const guarded = new Hono<V1Env>();
  guarded.use('*', requireApiKey(), rateLimit(options.rateLimit ?? V1_RATE_LIMIT), idempotency());
  for (const op of v1Operations()) {
    const contracts: MiddlewareHandler<V1Env>[] = [...(op.params ? [documented('param', op.params)] : []), ...(op.body ? [documented('json', op.body)] : [])];
    const handle: Handler<V1Env> = async (c) => {
      const params = op.params ? (parse(op.params, c.req.param()) as Record<string, string>) : {};
      const body = op.body ? parse(op.body, await jsonBody(await c.req.text())) : undefined;
      const { status, answer } = await op.handler(c, { params, body });
      return c.json(answer as object, status);
    };
    guarded.on([op.method.toUpperCase()], [op.path], ...contracts, handle);
  }
  api.route('/', guarded);
  return api;
}

// ---------------------------------------------------------------- OpenAPI 3.1, generated

type Json = Record<string, unknown>;

function schemaOf(schema: v.GenericSchema, mode: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: mode, errorMode: 'ignore' }) as Json;
  return rest;
}

const COMMON_ERRORS = [
  { status: 400, code: 'VALIDATION_FAILED', description: 'The body or a parameter is not valid; `fields` names them.' },
  { status: 401, code: 'INVALID_API_KEY', description: 'Missing, wrong or rotated secret key.' },
  { status: 409, code: 'IDEMPOTENCY_CONFLICT', description: 'The Idempotency-Key was used with another request in the last 24 hours.' },
  { status: 429, code: 'RATE_LIMITED', description: "More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After)." },
];

/** The IETF httpapi draft's header fields (draft-ietf-httpapi-ratelimit-headers, structured-field form). */
const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': {
    description:
      `The account's quota policy: \`"${RATE_LIMIT_POLICY}";q=<requests>;w=<seconds>\`. A bucket of q requests that refills in w seconds (the default \`"${RATE_LIMIT_POLICY}";q=${DEFAULT_API_RATE_LIMIT.burst};w=${BURST_SECONDS}\`: ${DEFAULT_API_RATE_LIMIT.perSecond} a second, bursts of ${DEFAULT_API_RATE_LIMIT.burst}). Provider staff set each account's limit.`,
    schema: { type: 'string', examples: [`"${RATE_LIMIT_POLICY}";q=${DEFAULT_API_RATE_LIMIT.burst};w=${BURST_SECONDS}`] },
  },
  RateLimit: {
    description: `What is left now: \`"${RATE_LIMIT_POLICY}";r=<requests left>;t=<seconds until the bucket is full again>\`. At r=0 the next request answers 429 RATE_LIMITED; wait Retry-After.`,
    schema: { type: 'string', examples: [`"${RATE_LIMIT_POLICY}";r=12;t=2`] },
  },
};
const RATE_LIMIT_HEADER_REFS: Json = { 'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' }, RateLimit: { $ref: '#/components/headers/RateLimit' } };

export function openApiDocument(publicUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of v1Operations()) {
    const path = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: Json[] = Object.keys(op.params?.entries ?? {}).map((name) => ({ name, in: 'path', required: true, schema: schemaOf(op.params!.entries[name]!, 'input') }));
    if (op.method === 'post') parameters.push({ name: IDEMPOTENCY_HEADER, in: 'header', required: false, description: 'The same key and body within 24 h answers the first answer and does nothing again.', schema: { type: 'string', maxLength: 255 } });
    const responses: Json = {};
    for (const status of op.statuses) responses[String(status)] = { description: status === 201 ? 'Created' : 'OK', headers: RATE_LIMIT_HEADER_REFS, content: { 'application/json': { schema: schemaOf(op.answer, 'output') } } };
    const errors = [...COMMON_ERRORS, ...op.errors.map((e) => ({ ...e, description: e.code }))];
    for (const status of new Set(errors.map((e) => e.status))) {
      const codes = errors.filter((e) => e.status === status);
      responses[String(status)] = {
        description: codes.map((e) => `${e.code}: ${e.description}`).join(' '),
        // every answer past the key check carries the rate limit's header fields (a 401 has no account to count for)
        ...(status === 401 ? {} : { headers: { ...RATE_LIMIT_HEADER_REFS, ...(status === 429 ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } : {}) } }),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[path] = {
      ...(paths[path] ?? {}),
      [op.method]: {
        operationId: op.operationId,
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        tags: [op.tag],
        ...(parameters.length ? { parameters } : {}),
        ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(op.body, 'input') } } } } : {}),
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1',
      description: 'Authenticate with the secret key from Settings > Developers (`Authorization: Bearer sk_…`). Errors are `{ code, message, fields? }`.',
    },
    servers: [{ url: `${publicUrl.replace(/\/$/, '')}/api/v1` }],
    security: [{ secretKey: [] }],
    components: {
      securitySchemes: { secretKey: { type: 'http', scheme: 'bearer', description: 'The secret key (sk_…) from Settings > Developers' } },
      schemas: { Error: schemaOf(ErrorBodySchema, 'output') },
      headers: RATE_LIMIT_HEADERS,
    },
    paths,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A readable reference of the document, server-rendered (no CDN, no script). */
function referencePage(doc: Json): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const body = (op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
      const responses = op.responses as Record<string, Json>;
      sections.push(`<section id="${escapeHtml(String(op.operationId))}">
<h2><code>${method.toUpperCase()} /api/v1${escapeHtml(path)}</code> ${escapeHtml(String(op.summary))}</h2>
${op.description ? `<p>${escapeHtml(String(op.description))}</p>` : ''}
${body ? `<h3>Body</h3><pre>${escapeHtml(JSON.stringify(body['application/json']!.schema, null, 2))}</pre>` : ''}
<h3>Answers</h3><dl>${Object.entries(responses)
        .map(([status, r]) => `<dt>${status}</dt><dd>${escapeHtml(String(r.description))}</dd>`)
        .join('')}</dl>
</section>`);
    }
  }
  const info = doc.info as Json;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(String(info.title))} reference</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#111}pre{background:#f4f4f5;padding:.75rem;overflow:auto;font-size:13px}code{font-size:.95em}h2{font-size:1.1rem;border-top:1px solid #ddd;padding-top:1rem}dt{font-weight:600}</style>
</head><body><main><h1>${escapeHtml(String(info.title))} reference</h1><p>${escapeHtml(String(info.description))}</p>
<p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>${sections.join('\n')}</main></body></html>`;
}
