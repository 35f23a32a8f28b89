import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import * as v from 'valibot';
import { documented, validate, validationError } from '../../http/validate';
import { assertStorableInput } from '../../http/text-guard';
import { accountOfHost, pageLocaleOf } from '../../customer-pages/frame';
import { TOKEN_PATTERN } from '../../customer-pages/links';
import {
  PASSKEY_CREDENTIAL_PAGE,
  PasskeyCeremonyAbandonedSchema,
  PasskeyCeremonyResponseSchema,
  PasskeyCredentialQuerySchema,
  type PasskeyCredential,
} from '../../contract/apps/passkeys';
import { TASK_LAST_KEY_HEADER } from '../../contract/platform';
import { requestOrigin, uuidParam } from '../platform/request';
import { sessionCaller } from '../platform/caller';
import { authenticatorName } from './authenticators';
import { ceremonyAbandoned, ceremonyOptions, ceremonyVerify, LinkRefused, revokeCredential, type CredentialRow, type PageContext } from './service';
import { errorResponse } from '../../http/errors';
import { translator, type MessageKey } from '../../customer-pages/i18n/index';

// The Passkeys app's own routes: the Enrollments page (list and revoke) in the console, and the
// three calls the customer page's script makes (options, verify, abandoned) behind its link.

export function credentialOf(r: CredentialRow): PasskeyCredential {
  return {
    id: r.id,
    customerRef: r.customer_ref,
    displayName: r.display_name,
    credentialId: r.credential_id,
    aaguid: r.aaguid,
    authenticator: authenticatorName(r.aaguid),
    synced: r.backup_eligible,
    backedUp: r.backed_up,
    transports: r.transports,
    rpId: r.rp_id,
    createdAt: new Date(r.created_at).toISOString(),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
    signCount: Number(r.counter),
    revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
  };
}

export const passkeyConsoleRoutes = new Hono<AppEnv>()
  .get('/passkeys/credentials', requireRole('supervisor'), validate('query', PasskeyCredentialQuerySchema), async (c) => {
    const q = c.req.valid('query');
    const { accountId } = c.var.session;
    const at = q.lastKey ? q.lastKey.lastIndexOf('_') : -1;
    const rows = await c.var.deps.db.tenant(accountId, (trx) =>
      sql<CredentialRow & { key_ts: string }>`select *, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts
        from passkey_credentials where account_id = ${accountId}
        ${q.q ? sql`and customer_ref = ${q.q}` : sql``}
        ${q.revoked === 'true' ? sql`and revoked_at is not null` : q.revoked === 'false' ? sql`and revoked_at is null` : sql``}
        ${q.lastKey ? sql`and (created_at, id) < (${q.lastKey.slice(0, at)}::timestamptz, ${q.lastKey.slice(at + 1)}::uuid)` : sql``}
        order by created_at desc, id desc limit ${PASSKEY_CREDENTIAL_PAGE + 1}`.execute(trx),
    );
    const shown = rows.rows.slice(0, PASSKEY_CREDENTIAL_PAGE);
    c.header('access-control-expose-headers', TASK_LAST_KEY_HEADER);
    if (rows.rows.length > PASSKEY_CREDENTIAL_PAGE) {
      const last = shown[shown.length - 1]!;
      c.header(TASK_LAST_KEY_HEADER, `${last.key_ts}_${last.id}`);
    }
    return c.json(shown.map(credentialOf));
  })
  .post('/passkeys/credentials/:id/revoke', requireRole('admin'), async (c) => {
    const session = c.var.session;
    const origin = requestOrigin(c);
    const row = await revokeCredential(c.var.deps, session.accountId, uuidParam(c, 'id'), sessionCaller(session, origin.ip, origin.userAgent));
    return c.json(credentialOf(row));
  });

/**
 * The page's RP ID is the host it was served on (the console's host, or the account's verified
 * custom domain); its origin is that host with the scheme it is served with: the console's own
 * scheme on its host, https on a custom domain.
 */
async function pageContext(c: Context<AppEnv>): Promise<PageContext> {
  const token = c.req.param('token') ?? '';
  if (!TOKEN_PATTERN.test(token)) throw new LinkRefused('unknown');
  const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
  const rpId = host.replace(/:\d+$/, '');
  const publicUrl = new URL(c.var.deps.config.publicUrl);
  const scheme = rpId === publicUrl.hostname ? publicUrl.protocol : 'https:';
  const { ip, userAgent } = requestOrigin(c);
  // the page's script names the page's language (?lang=): the answer's words are in it
  return { rpId, origin: `${scheme}//${host}`, ip, userAgent, hostAccount: await accountOfHost(c.var.deps, host), locale: pageLocaleOf(c as never, null) };
}

/** The words the page's script shows for a refused call, by the answer's code. */
function refusalKey(err: unknown, code: string): MessageKey {
  if (err instanceof LinkRefused) return `passkey.error.${err.reason}`;
  if (code === 'LINK_NOT_USABLE') return 'passkey.error.unknown';
  if (code === 'TOO_MANY_ATTEMPTS') return 'passkey.error.tooMany';
  if (code === 'NO_PASSKEY') return 'passkey.error.noPasskey';
  if (code === 'DATABASE_BUSY' || code === 'DATABASE_UNAVAILABLE' || code === 'RATE_LIMITED') return 'passkey.error.busy';
  return 'passkey.somethingWrong';
}

/**
 * The customer page's calls answer a refusal with the usual status and code, and a message in
 * the page's language (?lang=): the script shows that message as it is.
 */
async function inPageLanguage(c: Context<AppEnv>, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    const answer = errorResponse(err, c, c.var.deps.log);
    const body = (await answer.clone().json()) as { code: string; requestId: string };
    const t = translator(pageLocaleOf(c as never, null));
    return c.json({ code: body.code, message: t(refusalKey(err, body.code)), requestId: body.requestId }, answer.status as 400);
  }
}

/** The JSON body checked against its schema inside the handler, so a refusal is worded like the others. */
async function bodyOf<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): Promise<v.InferOutput<S>> {
  const result = v.safeParse(schema, await c.req.json().catch(() => undefined));
  if (!result.success) throw validationError(result.issues);
  assertStorableInput(result.output);
  return result.output;
}

export const passkeyCustomerRoutes = new Hono<AppEnv>()
  .post('/c/:token/passkey/options', (c) =>
    inPageLanguage(c, async () => {
      const ctx = await pageContext(c);
      return c.json(await ceremonyOptions(c.var.deps, c.req.param('token'), ctx));
    }),
  )
  .post('/c/:token/passkey/verify', documented('json', PasskeyCeremonyResponseSchema), (c) =>
    inPageLanguage(c, async () => {
      const ctx = await pageContext(c);
      return c.json(await ceremonyVerify(c.var.deps, c.req.param('token'), await bodyOf(c, PasskeyCeremonyResponseSchema), ctx));
    }),
  )
  .post('/c/:token/passkey/abandoned', documented('json', PasskeyCeremonyAbandonedSchema), (c) =>
    inPageLanguage(c, async () => {
      const ctx = await pageContext(c);
      return c.json(await ceremonyAbandoned(c.var.deps, c.req.param('token'), (await bodyOf(c, PasskeyCeremonyAbandonedSchema)).reason, ctx));
    }),
  );
