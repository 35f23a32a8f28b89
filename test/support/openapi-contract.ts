import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../api/apps/platform/v1-routes';

// Every answer the API suite receives from /api/v1 is held to the published OpenAPI document by
// an independent validator (ajv, JSON Schema 2020-12, with formats): its status must be one the
// operation lists, and its JSON body must match that answer's schema with the schemas CLOSED, so
// a field the code adds without documenting it fails the test that received it. The published
// document stays open (new fields may appear, as Stripe's do: docs/api.md says the rule); the
// closing happens here only. test/api/helpers.ts wraps every test app's fetch with this.

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema: Json }> }> };

/** `schema` closed: every object schema takes no property it does not name (allOf's parts close where they join). */
export function closed(schema: unknown, insideAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closed(s, insideAllOf));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'allOf') out.allOf = (value as unknown[]).map((s) => closed(s, true));
    else if (key === 'properties' || key === '$defs' || key === 'patternProperties')
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, closed(v)]));
    else if (key === 'examples' || key === 'default' || key === 'const' || key === 'enum') out[key] = value;
    else out[key] = closed(value);
  }
  const isObject = 'properties' in out || out.type === 'object' || 'allOf' in out;
  if (isObject && !insideAllOf && !('additionalProperties' in out) && !('unevaluatedProperties' in out))
    out.unevaluatedProperties = false;
  return out;
}

type Contract = { check(method: string, path: string, status: number, contentType: string | null, body: string): string | null };

let contract: Contract | null = null;

/** The document's contract of answers, compiled once per test file. */
export function v1Contract(): Contract {
  if (contract) return contract;
  const doc = openApiDocument('http://127.0.0.1') as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Json> };
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv as never);
  // the components, closed, under the document's own $ref paths
  ajv.addSchema({ $id: 'doc', components: { schemas: closed(doc.components.schemas) } });
  const routes = Object.entries(doc.paths).map(([template, item]) => ({
    pattern: new RegExp(
      `^${template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[A-Za-z]+\}/g, '[^/]+')}$`,
    ),
    template,
    item,
  }));
  const compiled = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: Json) => {
    let fn = compiled.get(key);
    if (!fn) {
      // answers' $refs point into the document: resolve them against the components added above
      const rebased = JSON.parse(JSON.stringify(closed(schema)).replace(/"#\/components\//g, '"doc#/components/')) as Json;
      fn = ajv.compile(rebased);
      compiled.set(key, fn);
    }
    return fn;
  };
  contract = {
    check(method, path, status, contentType, body) {
      const route = routes.find((r) => r.pattern.test(path));
      const op = route?.item[method.toLowerCase()];
      // not an operation of the document (openapi.json, docs, an unknown path): Hono's own 404
      if (!route || !op) return null;
      const answer = op.responses[String(status)];
      if (!answer)
        return `${method} ${route.template} answered ${status}, which the document does not list (it lists ${Object.keys(op.responses).join(', ')}): ${body.slice(0, 300)}`;
      const schema = answer.content?.['application/json']?.schema;
      if (!schema) return null;
      if (!contentType?.includes('application/json'))
        return `${method} ${route.template} ${status} answered ${contentType ?? 'no content type'}, the document says application/json`;
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return `${method} ${route.template} ${status}: the body is not JSON: ${body.slice(0, 200)}`;
      }
      const validate = validator(`${method} ${route.template} ${status}`, schema);
      if (validate(value)) return null;
      return `${method} ${route.template} ${status} does not match the document (closed): ${ajv.errorsText(validate.errors, { separator: '; ' })}\n${body.slice(0, 500)}`;
    },
  };
  return contract;
}

/** `fetch` whose answers from /api/v1 are checked against the document; an answer that breaks it throws. */
export function checkedV1Fetch<F extends (request: Request, ...rest: never[]) => Response | Promise<Response>>(fetch: F): F {
  return (async (request: Request, ...rest: never[]) => {
    const response = await fetch(request, ...rest);
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/v1/')) return response;
    // server-sent or streamed answers are not JSON documents: the status is still checked
    const type = response.headers.get('content-type');
    const body = type?.includes('text/event-stream') ? '' : await response.clone().text();
    const problem = v1Contract().check(request.method, url.pathname.slice('/api/v1'.length), response.status, type, body);
    if (problem) throw new Error(`OpenAPI contract: ${problem}`);
    return response;
  }) as F;
}
