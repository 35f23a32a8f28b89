import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import { decryptSecret, encryptSecret } from '../crypto';
import {
  CustomerLookupSettingsSchema,
  CustomerLookupTestBodySchema,
  isEmptyLookupBody,
  type CustomerLookupAnswer,
  type CustomerLookupSettings,
  type CustomerLookupView,
  type LookupHeader,
} from '../contract/customer-lookup';
import type { Trx } from '../db/index';
import { ApiError } from '../http/errors';
import { validate, validationError } from '../http/validate';
import { lookupCustomers } from '../integrations/customer-lookup';
import type { Config } from '../config';

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
function resolveHeaders(headers: LookupHeader[], stored: { url: string; headers: StoredHeader[] } | undefined, url: string, config: Config): { key: string; value: string }[] {
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

export const customerLookupRoutes = new Hono<AppEnv>()
  .use('/customer-lookup', requireRole('admin'))
  .use('/customer-lookup/*', requireRole('admin'))
  .get('/customer-lookup', async (c) => {
    const { accountId } = c.var.session;
    const row = await c.var.deps.db.tenant(accountId, (trx) => load(trx, accountId));
    return c.json({ settings: viewOf(row) } satisfies CustomerLookupAnswer);
  })
  .post('/customer-lookup', async (c) => {
    const raw = await c.req.json().catch(() => {
      throw new ApiError(400, 'INVALID_BODY', 'The request body is not valid JSON.');
    });
    const session = c.var.session;
    const { db, config } = c.var.deps;
    if (isEmptyLookupBody(raw)) {
      await remove(db, session);
      return c.json({ settings: null } satisfies CustomerLookupAnswer);
    }
    const parsed = v.safeParse(CustomerLookupSettingsSchema, raw);
    if (!parsed.success) throw validationError(parsed.issues);
    const s: CustomerLookupSettings = parsed.output;
    const answer = await db.tenant(session.accountId, async (trx) => {
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
    return c.json({ settings: answer } satisfies CustomerLookupAnswer);
  })
  .delete('/customer-lookup', async (c) => {
    await remove(c.var.deps.db, c.var.session);
    return c.json({ settings: null } satisfies CustomerLookupAnswer);
  })
  .post('/customer-lookup/test', validate('json', CustomerLookupTestBodySchema), async (c) => {
    const body = c.req.valid('json');
    const { accountId } = c.var.session;
    const { db, config } = c.var.deps;
    const stored = await db.tenant(accountId, (trx) => load(trx, accountId));
    const headers = resolveHeaders(body.headers, stored, body.url, config);
    const customers = await lookupCustomers(c.var.deps, { ...body, headers }, body.phoneNumber);
    return c.json({ customers });
  });

async function remove(db: AppEnv['Variables']['deps']['db'], session: AppEnv['Variables']['session']) {
  await db.tenant(session.accountId, async (trx) => {
    const removed = await trx.deleteFrom('customer_lookup').where('account_id', '=', session.accountId).returning('url').executeTakeFirst();
    if (removed) {
      await audit(trx, session.accountId, actorOf(session), { namespace: 'global', description: 'Removed the customer lookup settings', event: 'customer-lookup.removed' });
    }
  });
}
