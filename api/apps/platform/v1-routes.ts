import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { ApiError, API_BODY_LIMIT, bodyTooLarge } from '../../http/errors';
import { bodyLimit } from 'hono/body-limit';
import { documented, validationError } from '../../http/validate';
import { assertStorableInput } from '../../http/text-guard';
import { ErrorBodySchema, SENT_KEY } from '../../contract/common';
import { APPS } from '../../contract/apps';
import { IDEMPOTENCY_HEADER } from '../../contract/platform';
import { BURST_SECONDS, DEFAULT_API_RATE_LIMIT, RATE_LIMIT_POLICY } from '../../contract/api-limits';
import { appModules, sharedV1Groups } from './registry';
import { idempotency, rateLimit, requireApiKey, V1_RATE_LIMIT, type V1Env } from './v1-guards';
import type { RateLimit } from '../../usage/token-bucket';
import type { V1Operation } from './v1-spec';
import { escapeHtml } from '../../http/escape-html';

export function v1Operations(): V1Operation[] {
  return [...appModules().flatMap((m) => m.v1 ?? []), ...sharedV1Groups().flatMap((g) => g.ops)];
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

/** `application/json` with any parameters (charset), or any `+json` type. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * 415 UNSUPPORTED_MEDIA_TYPE for a request with a body whose type is not JSON: the API takes JSON
 * only, and reading text/plain as JSON would let a form or a simple cross-site request in. A
 * request without a body is not refused.
 */
function jsonBodiesOnly(): MiddlewareHandler<V1Env> {
  return async (c, next) => {
    const length = c.req.header('content-length');
    const fromNode = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    // HTTP/1.1: a body has a length or a transfer coding; a Request made in process (tests, other
    // runtimes) says so by its body
    const hasBody =
      (length !== undefined && length !== '0') ||
      c.req.header('transfer-encoding') !== undefined ||
      (!fromNode && length === undefined && c.req.raw.body !== null);
    if (hasBody && !JSON_TYPE.test(c.req.header('content-type') ?? '')) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON: Content-Type: application/json.');
    }
    await next();
  };
}

/** /api/v1: the secret key, the per-key rate limit and Idempotency-Key in front of every operation. */
export function v1Routes(options: { rateLimit?: RateLimit } = {}) {
  const api = new Hono<V1Env>();
  api.get('/openapi.json', (c) => c.json(openApiDocument(c.var.deps.config.publicUrl)));
  api.get('/docs', (c) => c.html(referencePage(openApiDocument(c.var.deps.config.publicUrl))));
  const guarded = new Hono<V1Env>();
  const limit = bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: () => {
      throw bodyTooLarge();
    },
  });
  guarded.use(
    '*',
    requireApiKey(),
    rateLimit(options.rateLimit ?? V1_RATE_LIMIT),
    (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next)),
    jsonBodiesOnly(),
    idempotency(),
  );
  for (const op of v1Operations()) {
    const contracts: MiddlewareHandler<V1Env>[] = [
      ...(op.params ? [documented('param', op.params)] : []),
      ...(op.body ? [documented('json', op.body)] : []),
    ];
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

/**
 * presentText keys (SENT_KEY) are required in the contract though valibot reads them missing as
 * '': listed as required, without the '' default their own checks refuse.
 */
function sentKeysRequired({ jsonSchema }: { jsonSchema: Json }): Json | undefined {
  const properties = jsonSchema.properties as Record<string, Json> | undefined;
  if (!properties) return undefined;
  for (const [key, property] of Object.entries(properties)) {
    if (property[SENT_KEY] !== true) continue;
    delete property[SENT_KEY];
    delete property.default;
    jsonSchema.required = [...new Set([...((jsonSchema.required as string[] | undefined) ?? []), key])];
  }
  return undefined;
}

/** The mark left where no object holds the key (a path parameter's own schema). */
function withoutMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarks);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== SENT_KEY)
      .map(([k, v]) => [k, withoutMarks(v)]),
  );
}

function schemaOf(schema: v.GenericSchema, mode: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: mode,
    errorMode: 'ignore',
    overrideSchema: sentKeysRequired as never,
  }) as Json;
  return withoutMarks(rest) as Json;
}

/** What each stable code an operation lists means (an operation may say more of its own). */
const ERROR_TEXT: Record<string, string> = {
  FREE_TIER_EXHAUSTED: "The app's free tier is used up: subscribe to it in the console.",
  APP_NOT_ACTIVE: 'The app is not active on this account: start a free trial or subscribe in the console.',
  NOT_FOUND: 'The calling account has nothing with this id.',
  SMS_NOT_CONFIGURED: 'No SMS provider is connected (Settings > SMS Configuration).',
  COUNTRY_NOT_ALLOWED: "The number's country is not among the countries this account may text (Settings > SMS Configuration).",
  NUMBER_TYPE_NOT_ALLOWED: 'The number is premium-rate or shared-cost, or not a valid number of its country.',
  SMS_PUMPING_SUSPECTED:
    'Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first.',
  SMS_NOT_DELIVERED:
    'The SMS provider did not take the message: its credit is given back and the link does not work (a new request is cancelled).',
  TOO_MANY_SENDS: 'Too many passcodes to this number in 10 minutes; Retry-After says when the next is allowed.',
  NO_PASSKEY: 'The customer has no passkey yet: enroll one first.',
  FORM_NOT_PUBLISHED: 'The form has never been published.',
  FORM_CLOSED: 'The form is closed: publish it again to send it.',
  VERSION_NOT_PUBLISHED: 'The version asked for is a draft: publish it first.',
  NOT_OPEN: 'The request is no longer waiting for its customer.',
  STRIPE_NOT_CONNECTED: 'No Stripe account is connected (Payments > Configuration > Stripe).',
  STRIPE_UNAVAILABLE: 'Stripe did not answer as expected.',
  STRIPE_CONNECT_NOT_CONFIGURED: 'Stripe Connect is not set up on this server.',
};

type DocumentedError = { status: number; code: string; description: string };

/** What every operation may answer besides its own codes, by what it takes. */
function commonErrors(op: V1Operation): DocumentedError[] {
  return [
    { status: 400, code: 'VALIDATION_FAILED', description: 'The body or a parameter is not valid; `fields` names them.' },
    ...(op.body
      ? [
          { status: 400, code: 'INVALID_BODY', description: 'The body is not JSON.' },
          { status: 413, code: 'BODY_TOO_LARGE', description: 'The body is larger than 1 MB.' },
          {
            status: 415,
            code: 'UNSUPPORTED_MEDIA_TYPE',
            description: 'The body is not sent as JSON (Content-Type application/json, any charset, or a +json type).',
          },
        ]
      : []),
    { status: 401, code: 'INVALID_API_KEY', description: 'Missing, wrong or rotated secret key.' },
    ...(op.method === 'post'
      ? [
          {
            status: 409,
            code: 'IDEMPOTENCY_CONFLICT',
            description: 'The Idempotency-Key was used with another request in the last 24 hours.',
          },
          {
            status: 409,
            code: 'IDEMPOTENCY_IN_PROGRESS',
            description: 'The first request with this Idempotency-Key is still running; Retry-After says when to ask again.',
          },
        ]
      : []),
    {
      status: 429,
      code: 'RATE_LIMITED',
      description:
        "More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address.",
    },
    {
      status: 503,
      code: 'DATABASE_BUSY',
      description: 'The database had no room for this request now; Retry-After says when to ask again.',
    },
    {
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      description: 'The database is briefly unavailable; Retry-After says when to ask again.',
    },
  ];
}

/** The IETF httpapi draft's header fields (draft-ietf-httpapi-ratelimit-headers, structured-field form). */
const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': {
    description: `The account's quota policy: \`"${RATE_LIMIT_POLICY}";q=<requests>;w=<seconds>\`. A bucket of q requests that refills in w seconds (the default \`"${RATE_LIMIT_POLICY}";q=${DEFAULT_API_RATE_LIMIT.burst};w=${BURST_SECONDS}\`: ${DEFAULT_API_RATE_LIMIT.perSecond} a second, bursts of ${DEFAULT_API_RATE_LIMIT.burst}). Provider staff set each account's limit.`,
    schema: { type: 'string', examples: [`"${RATE_LIMIT_POLICY}";q=${DEFAULT_API_RATE_LIMIT.burst};w=${BURST_SECONDS}`] },
  },
  RateLimit: {
    description: `What is left now: \`"${RATE_LIMIT_POLICY}";r=<requests left>;t=<seconds until the bucket is full again>\`. At r=0 the next request answers 429 RATE_LIMITED; wait Retry-After.`,
    schema: { type: 'string', examples: [`"${RATE_LIMIT_POLICY}";r=12;t=2`] },
  },
  'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 0 } },
};
const RATE_LIMIT_HEADER_REFS: Json = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};
const RETRY_AFTER_REF: Json = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };

/** Answers that may carry Retry-After: a wait is part of what they say. */
const WITH_RETRY_AFTER = new Set([
  'IDEMPOTENCY_IN_PROGRESS',
  'RATE_LIMITED',
  'DATABASE_BUSY',
  'DATABASE_UNAVAILABLE',
  'SMS_PUMPING_SUSPECTED',
  'TOO_MANY_SENDS',
]);

export function openApiDocument(publicUrl: string): Json {
  const base = publicUrl.replace(/\/$/, '');
  const paths: Record<string, Json> = {};
  const tags = new Map<string, string>();
  for (const module of appModules()) {
    for (const op of module.v1 ?? []) {
      tags.set(op.tag, APPS.find((a) => a.id === module.id)?.description ?? op.tag);
      paths[op.path.replace(/:([A-Za-z]+)/g, '{$1}')] = {
        ...(paths[op.path.replace(/:([A-Za-z]+)/g, '{$1}')] ?? {}),
        [op.method]: operationOf(op),
      };
    }
  }
  for (const group of sharedV1Groups()) {
    tags.set(group.tag, group.description);
    for (const op of group.ops)
      paths[op.path.replace(/:([A-Za-z]+)/g, '{$1}')] = {
        ...(paths[op.path.replace(/:([A-Za-z]+)/g, '{$1}')] ?? {}),
        [op.method]: operationOf(op),
      };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1',
      description:
        'Authenticate with the secret key from Settings > Developers (`Authorization: Bearer sk_…`). Errors are `{ code, message, fields?, requestId }`. Every answer carries `X-Request-Id` (yours when you send one of 8 to 128 letters, digits or `._:+=/@-`, else ours): quote it to support.',
      contact: { name: 'Switchboard', url: base },
      license: { name: 'Switchboard Terms of Service', url: `${base}/terms` },
    },
    servers: [{ url: `${base}/api/v1` }],
    security: [{ secretKey: [] }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'The secret key (sk_…) from Settings > Developers' },
      },
      schemas: { Error: schemaOf(ErrorBodySchema, 'output') },
      headers: RATE_LIMIT_HEADERS,
    },
    paths,
  };
}

/**
 * Whether a request must carry a body: the server reads no body as `{}` (jsonBody), so a body is
 * required only where `{}` is refused (a cancel's or a resend's optional agent is not).
 */
function bodyRequired(body: v.GenericSchema): boolean {
  return !v.safeParse(body, {}).success;
}

function operationOf(op: V1Operation): Json {
  const parameters: Json[] = Object.keys(op.params?.entries ?? {}).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: schemaOf(op.params!.entries[name]!, 'input'),
  }));
  if (op.method === 'post')
    parameters.push({
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      description: 'The same key and body within 24 h answers the first answer and does nothing again.',
      schema: { type: 'string', maxLength: 255 },
    });
  const responses: Json = {};
  for (const status of op.statuses)
    responses[String(status)] = {
      description: status === 201 ? 'Created' : 'OK',
      headers: RATE_LIMIT_HEADER_REFS,
      content: { 'application/json': { schema: schemaOf(op.answer, 'output') } },
    };
  const errors = [
    ...commonErrors(op),
    ...op.errors.map((e) => ({ ...e, description: e.description ?? ERROR_TEXT[e.code] ?? e.code })),
  ];
  for (const status of new Set(errors.map((e) => e.status))) {
    const codes = errors.filter((e) => e.status === status);
    const retry = codes.some((e) => WITH_RETRY_AFTER.has(e.code));
    responses[String(status)] = {
      description: codes.map((e) => `${e.code}: ${e.description}`).join(' '),
      // every answer past the key check carries the rate limit's header fields (a 401 has no account to count for)
      ...(status === 401 ? {} : { headers: { ...RATE_LIMIT_HEADER_REFS, ...(retry ? RETRY_AFTER_REF : {}) } }),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: bodyRequired(op.body),
            content: { 'application/json': { schema: schemaOf(op.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

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
