import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import * as v from 'valibot';
import { documented, validate, validationError } from '../../http/validate';
import { assertStorableInput } from '../../http/text-guard';
import { accountOfHost, pageLocaleOf } from '../../customer-pages/frame';
import { TOKEN_PATTERN } from '../../customer-pages/links';
import {
  PasskeyCeremonyAbandonedSchema,
  PasskeyCeremonyResponseSchema,
  PasskeyCredentialQuerySchema,
} from '../../contract/apps/passkeys';
import { TASK_LAST_KEY_HEADER } from '../../contract/platform';
import { requestOrigin, uuidParam } from '../platform/request';
import { sessionCaller } from '../platform/caller';
import { credentialOf, listCredentials } from './credentials';
import { ceremonyAbandoned, ceremonyOptions, ceremonyVerify, LinkRefused, revokeCredential, type PageContext } from './service';
import { errorResponse } from '../../http/errors';
import { translator, type MessageKey } from '../../customer-pages/i18n/index';

// The Passkeys app's own routes: the Enrollments page (list and revoke) in the console, and the
// three calls the customer page's script makes (options, verify, abandoned) behind its link.

export const passkeyConsoleRoutes = new Hono<AppEnv>()
  .get('/passkeys/credentials', requireRole('supervisor'), validate('query', PasskeyCredentialQuerySchema), async (c) => {
    const { accountId } = c.var.session;
    const { credentials, lastKey } = await listCredentials(c.var.deps, accountId, c.req.valid('query'));
    c.header('access-control-expose-headers', TASK_LAST_KEY_HEADER);
    if (lastKey) c.header(TASK_LAST_KEY_HEADER, lastKey);
    return c.json(credentials);
  })
  .post('/passkeys/credentials/:id/revoke', requireRole('admin'), async (c) => {
    const session = c.var.session;
    const origin = requestOrigin(c);
    const row = await revokeCredential(
      c.var.deps,
      session.accountId,
      uuidParam(c, 'id'),
      sessionCaller(session, origin.ip, origin.userAgent),
    );
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
  return {
    rpId,
    origin: `${scheme}//${host}`,
    ip,
    userAgent,
    hostAccount: await accountOfHost(c.var.deps, host),
    locale: pageLocaleOf(c as never, null),
  };
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
      return c.json(
        await ceremonyAbandoned(c.var.deps, c.req.param('token'), (await bodyOf(c, PasskeyCeremonyAbandonedSchema)).reason, ctx),
      );
    }),
  );
