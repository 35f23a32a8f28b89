import * as v from 'valibot';
import type { Session } from '../auth/context';
import { audit, actorOf } from '../audit';
import { decryptSecret, encryptSecret } from '../crypto';
import {
  CustomerLookupSettingsSchema,
  isEmptyLookupBody,
  type CustomerLookupSettings,
  type CustomerLookupTestAnswer,
  type CustomerLookupTestRequest,
  LOOKUP_MAPPING_FIELDS,
  type CustomerLookupView,
  type LookupHeader,
} from '../contract/customer-lookup';
import type { Trx } from '../db/index';
import { ApiError } from '../http/errors';
import { validationError } from '../http/validate';
import { customersIn, fetchLookupAnswer, redactedAnswer } from './lookup';
import type { Config } from '../config';
import type { Deps } from '../deps';

// Settings > Customer Lookup: the endpoint an account's agents look callers up in, and its test.

type StoredHeader = { key: string; valueEnc: string };

async function load(trx: Trx, accountId: string) {
  return trx.selectFrom('customer_lookup').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

function viewOf(row: Awaited<ReturnType<typeof load>>): CustomerLookupView | null {
  if (!row) return null;
  return {
    url: row.url,
    method: row.method,
    headerKeys: row.headers.map((h) => h.key),
    customerPath: row.customer_path,
    customerId: row.customer_id,
    titleTemplate: row.title_template,
    descriptionTemplate: row.description_template,
  };
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

/**
 * Header values are never sent back, so a header without a value means "keep the saved one";
 * a header name that has no saved value must come with one. Saved values belong to the URL they
 * were entered for: with any other URL every value must be typed again, so a stored credential
 * is never sent somewhere new.
 */
function resolveHeaders(
  headers: LookupHeader[],
  stored: { url: string; headers: StoredHeader[] } | undefined,
  url: string,
  config: Config,
): { key: string; value: string }[] {
  const keepable = stored && sameUrl(stored.url, url) ? stored.headers : [];
  const seen = new Set<string>();
  const fields: Record<string, string> = {};
  const out = headers.map((h, i) => {
    const lower = h.key.toLowerCase();
    if (seen.has(lower)) fields[`headers.${i}.key`] = 'This header is already listed';
    seen.add(lower);
    if (h.value !== undefined) return { key: h.key, value: h.value };
    const saved = keepable.find((s) => s.key.toLowerCase() === lower);
    if (!saved) {
      fields[`headers.${i}.value`] = 'Value is required';
      return { key: h.key, value: '' };
    }
    return { key: h.key, value: decryptSecret(saved.valueEnc, config.encryptionKey) };
  });
  const first = Object.entries(fields)[0];
  if (first) throw new ApiError(400, 'VALIDATION_FAILED', `${first[0]}: ${first[1]}`, fields);
  return out;
}

/** The saved settings as the screen shows them (header names only, never their values). */
export async function readLookupSettings(deps: Deps, accountId: string): Promise<CustomerLookupView | null> {
  return viewOf(await deps.db.tenant(accountId, (trx) => load(trx, accountId)));
}

/** Saves the settings from a raw body; an empty form removes them (SPEC: "empty values remove"). */
export async function saveLookupSettings(deps: Deps, session: Session, raw: unknown): Promise<CustomerLookupView | null> {
  const { db, config } = deps;
  if (isEmptyLookupBody(raw)) {
    await removeLookupSettings(deps, session);
    return null;
  }
  const parsed = v.safeParse(CustomerLookupSettingsSchema, raw);
  if (!parsed.success) throw validationError(parsed.issues);
  const s: CustomerLookupSettings = parsed.output;
  return db.tenant(session.accountId, async (trx) => {
    const existing = await load(trx, session.accountId);
    const headers = resolveHeaders(s.headers, existing, s.url, config);
    const values = {
      url: s.url,
      method: s.method,
      headers: JSON.stringify(headers.map((h) => ({ key: h.key, valueEnc: encryptSecret(h.value, config.encryptionKey) }))),
      customer_path: s.customerPath,
      customer_id: s.customerId,
      title_template: s.titleTemplate,
      description_template: s.descriptionTemplate,
    };
    await trx
      .insertInto('customer_lookup')
      .values({ account_id: session.accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `${existing ? 'Updated' : 'Set up'} customer lookup (${s.method} ${new URL(s.url).host})`,
      event: 'customer-lookup.saved',
    });
    return viewOf(await load(trx, session.accountId));
  });
}

export async function removeLookupSettings(deps: Deps, session: Session): Promise<void> {
  await deps.db.tenant(session.accountId, async (trx) => {
    const removed = await trx
      .deleteFrom('customer_lookup')
      .where('account_id', '=', session.accountId)
      .returning('url')
      .executeTakeFirst();
    if (removed) {
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: 'Removed the customer lookup settings',
        event: 'customer-lookup.removed',
      });
    }
  });
}

/**
 * Runs a lookup with the typed settings (saved header values kept for the same URL only) and
 * answers the endpoint's answer as a sample to pick paths from. With a path or template still
 * blank there are no customers yet, only the sample and what is missing.
 */
export async function testLookup(
  deps: Deps,
  accountId: string,
  body: CustomerLookupTestRequest,
): Promise<CustomerLookupTestAnswer> {
  const stored = await deps.db.tenant(accountId, (trx) => load(trx, accountId));
  const headers = resolveHeaders(body.headers, stored, body.url, deps.config);
  const answer = await fetchLookupAnswer(deps, { url: body.url, method: body.method, headers }, body.phoneNumber);
  const sample = redactedAnswer(
    answer.text,
    headers.map((h) => h.value),
  );
  const missing = LOOKUP_MAPPING_FIELDS.filter((f) => body[f] === '');
  if (missing.length) return { sample, missing };
  return { customers: customersIn(answer.document, body), sample, missing };
}
