import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { errorText } from '../http/error-text';
import { MAX_LOOKUP_CUSTOMERS, type CustomerLookupSettings, type LookupCustomer } from '../contract/customer-lookup';
import { compileGjsonPath, gjsonFind, renderTemplate } from '../contract/logic/gjson';
import { parseRawJson, type JsonNode } from '../contract/logic/raw-json';
import { OutboundError, outboundFetch, outboundPolicy } from '../integrations/outbound';

// Calls an account's own customer API with a caller's phone number and turns its answer into
// customers (id, title, description) with the configured GJSON paths and templates.

export type ResolvedLookup = Omit<CustomerLookupSettings, 'headers'> & { headers: { key: string; value: string }[] };

const LOOKUP_TIMEOUT_MS = 8_000;
const LOOKUP_MAX_BYTES = 2 * 1024 * 1024;

// 422, not 502: the failure is the customer's endpoint or settings, and the console passes a
// 4xx body (the reason) through to the test panel.
function lookupFailed(message: string): ApiError {
  return new ApiError(422, 'LOOKUP_FAILED', message);
}

/** The endpoint's answer to a lookup: its text as sent and the document parsed from it. */
export type LookupAnswer = { text: string; document: JsonNode };

/** Calls the endpoint with a phone number; the failures an admin can fix answer 422. */
export async function fetchLookupAnswer(
  deps: Pick<Deps, 'config'>,
  settings: Pick<ResolvedLookup, 'url' | 'method' | 'headers'>,
  phoneNumber: string,
): Promise<LookupAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Switchboard-Customer-Lookup/1' };
  for (const h of settings.headers) headers[h.key.toLowerCase()] = h.value;
  let url = settings.url;
  let body: string | undefined;
  if (settings.method === 'GET') {
    const u = new URL(settings.url);
    u.searchParams.set('phoneNumber', phoneNumber);
    url = u.toString();
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ phoneNumber });
  }
  let res;
  try {
    res = await outboundFetch(
      url,
      { method: settings.method, headers, body },
      { ...outboundPolicy(deps.config), timeoutMs: LOOKUP_TIMEOUT_MS, maxBytes: LOOKUP_MAX_BYTES },
    );
  } catch (err) {
    if (err instanceof OutboundError) {
      if (err.code === 'TARGET_NOT_ALLOWED') throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message);
      throw lookupFailed(err.message);
    }
    throw err;
  }
  if (!res.ok) {
    // an endpoint may echo the request back: never let it quote our headers
    const snippet = errorText(res.text(), { secrets: settings.headers.map((h) => h.value), max: 200 });
    throw lookupFailed(`The endpoint answered ${res.status}${snippet ? `: ${snippet}` : ''}`);
  }
  const text = res.text();
  try {
    // Raw-preserving: ids such as 634866135153775564 keep every digit (JSON.parse rounds them).
    return { text, document: parseRawJson(text) };
  } catch {
    throw lookupFailed('The endpoint did not answer with JSON.');
  }
}

/** The customers (id, title, description) the paths and templates find in an answer. */
export function customersIn(
  document: JsonNode,
  settings: Pick<ResolvedLookup, 'customerPath' | 'customerId' | 'titleTemplate' | 'descriptionTemplate'>,
): LookupCustomer[] {
  const found = gjsonFind(document, compileGjsonPath(settings.customerPath));
  const list =
    !found || found.kind === 'null' ? [] : found.kind === 'array' ? found.items : found.kind === 'object' ? [found] : null;
  if (!list)
    throw lookupFailed(
      `The customers array path "${settings.customerPath}" leads to a ${found!.kind}, not to a list of customers.`,
    );
  const idPath = compileGjsonPath(settings.customerId);
  const customers: LookupCustomer[] = [];
  for (const item of list) {
    const id = gjsonFind(item, idPath);
    // A customer without an id cannot be matched later; leave it out.
    if (!id || id.kind === 'null' || id.kind === 'object' || id.kind === 'array') continue;
    customers.push({
      id: id.kind === 'string' ? id.value : id.raw,
      title: renderTemplate(settings.titleTemplate, item),
      description: renderTemplate(settings.descriptionTemplate, item),
    });
    if (customers.length >= MAX_LOOKUP_CUSTOMERS) break;
  }
  return customers;
}

const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/g;

/**
 * The answer's text with every header value removed from its strings: header values are never
 * sent back to the console (a saved one is kept server-side), and an endpoint may echo them.
 * Only string tokens change, so the text stays the same JSON otherwise (numbers keep every digit).
 */
export function redactedAnswer(text: string, secrets: string[]): string {
  const kept = [...new Set(secrets.filter((s) => s.trim().length >= 4))].sort((a, b) => b.length - a.length);
  if (!kept.length) return text;
  return text.replace(JSON_STRING, (token) => {
    const value = JSON.parse(token) as string;
    let out = value;
    for (const secret of kept) out = out.split(secret).join('[redacted]');
    return out === value ? token : JSON.stringify(out);
  });
}
