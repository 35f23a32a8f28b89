import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import {
  BrandingUpdateSchema,
  DNS_CHECK_FAILED,
  DNS_CHECK_FAILED_MESSAGE,
  DNS_INVALID,
  DNS_INVALID_MESSAGE,
  DOMAIN_TAKEN,
  DomainUpdateSchema,
  type Branding,
  type BrandingSettings,
} from '../contract/branding';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { decodeAndSanitizeLogo, SvgRejected } from '../branding/svg';
import { checkCname, DnsCheckError, type CnameCheck } from '../integrations/dns';
import { readBranding } from './branding-data';

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

const domainTaken = () => new ApiError(409, DOMAIN_TAKEN, 'This domain is already in use by another account.');

export const brandingRoutes = new Hono<AppEnv>()
  .get('/branding', requireRole('admin'), async (c) => {
    const { accountId } = c.var.session;
    const branding = await c.var.deps.db.tenant(accountId, (trx) => readBranding(trx, accountId));
    const answer: BrandingSettings = { ...branding, cnameTarget: c.var.deps.config.cnameTarget };
    return c.json(answer);
  })

  .put('/branding', requireRole('admin'), validate('json', BrandingUpdateSchema), async (c) => {
    const input = c.req.valid('json');
    const session = c.var.session;
    let logo: string;
    try {
      logo = decodeAndSanitizeLogo(input.logo);
    } catch (err) {
      if (err instanceof SvgRejected) throw new ApiError(400, 'LOGO_INVALID', err.message, { logo: err.message });
      throw err;
    }
    const branding = await c.var.deps.db.tenant(session.accountId, async (trx) => {
      const before = await trx.selectFrom('branding').selectAll().where('account_id', '=', session.accountId).forUpdate().executeTakeFirst();
      const changed = [
        before?.name !== input.name && 'name',
        (before?.logo ?? '') !== logo && 'logo',
        before?.color !== input.color && 'color',
      ].filter((x): x is string => Boolean(x));
      if (changed.length === 0) return readBranding(trx, session.accountId);
      await trx
        .insertInto('branding')
        .values({ account_id: session.accountId, name: input.name, logo, color: input.color, domain: null })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ name: input.name, logo, color: input.color, updated_at: c.var.deps.now() }))
        .execute();
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `Updated the branding (${changed.join(', ')})`,
        event: 'branding.updated',
      });
      return readBranding(trx, session.accountId);
    });
    return c.json(branding);
  })

  /**
   * Claims a custom domain and checks its CNAME. The claim is kept while DNS propagates, so the
   * console can show the verifying state and re-check; a check that finds no (or the wrong) CNAME
   * answers 422 DNS_INVALID, a resolver failure 502 DNS_CHECK_FAILED. `domain: null` removes it.
   */
  .put('/branding/domain', requireRole('admin'), validate('json', DomainUpdateSchema), async (c) => {
    const { domain } = c.req.valid('json');
    const session = c.var.session;
    const { db, config, now } = c.var.deps;

    if (domain !== null) {
      // Another account's claim is only visible to this explicit cross-account check; all it
      // tells the caller is that the name is taken.
      const claimed = await db.system((trx) =>
        trx.selectFrom('branding').select('account_id').where('domain', '=', domain).where('account_id', '<>', session.accountId).executeTakeFirst(),
      );
      if (claimed) throw domainTaken();
    }

    let check: CnameCheck | 'failed' = 'invalid';
    if (domain !== null) {
      try {
        check = await checkCname(domain, config.cnameTarget, config.dnsServers);
      } catch (err) {
        if (!(err instanceof DnsCheckError)) throw err;
        c.var.deps.log(`DNS check for ${domain} failed`, err);
        check = 'failed';
      }
    }
    const verified = check === 'verified';

    let branding: Branding;
    try {
      branding = await db.tenant(session.accountId, async (trx) => {
        const before = await trx.selectFrom('branding').select(['domain', 'domain_is_verified']).where('account_id', '=', session.accountId).forUpdate().executeTakeFirst();
        const account = await trx.selectFrom('accounts').select('name').where('id', '=', session.accountId).executeTakeFirstOrThrow();
        if (before?.domain === domain && before.domain_is_verified === verified) return readBranding(trx, session.accountId);
        await trx
          .insertInto('branding')
          .values({ account_id: session.accountId, name: account.name, domain, domain_is_verified: verified })
          .onConflict((oc) => oc.column('account_id').doUpdateSet({ domain, domain_is_verified: verified, updated_at: now() }))
          .execute();
        const [description, event] =
          domain === null
            ? [`Removed the custom domain ${before?.domain ?? ''}`.trim(), 'domain.removed']
            : verified
              ? [`Verified the custom domain ${domain}`, 'domain.verified']
              : before?.domain === domain
                ? [`The custom domain ${domain} no longer points at ${config.cnameTarget}`, 'domain.unverified']
                : [`Set the custom domain ${domain} (waiting for DNS)`, 'domain.claimed'];
        await audit(trx, session.accountId, actorOf(session), { namespace: 'global', description, event });
        return readBranding(trx, session.accountId);
      });
    } catch (err) {
      // two accounts racing for the same name: the unique index decides
      if (isUniqueViolation(err)) throw domainTaken();
      throw err;
    }

    if (check === 'invalid' && domain !== null) throw new ApiError(422, DNS_INVALID, DNS_INVALID_MESSAGE);
    if (check === 'failed') throw new ApiError(502, DNS_CHECK_FAILED, DNS_CHECK_FAILED_MESSAGE);
    return c.json(branding);
  });
