import type { Session } from '../auth/context';
import type { Deps } from '../deps';
import { audit, actorOf } from '../audit';
import {
  challengeName,
  DNS_CHECK_FAILED,
  DNS_CHECK_FAILED_MESSAGE,
  DNS_INVALID,
  DNS_INVALID_MESSAGE,
  DOMAIN_TAKEN,
  type Branding,
  type BrandingSettings,
  type BrandingUpdate,
} from '../contract/branding';
import { ApiError } from '../http/errors';
import { checkDomain, DnsCheckError, type DomainCheck } from '../integrations/dns';
import { readBranding } from './data';

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

const domainTaken = () => new ApiError(409, DOMAIN_TAKEN, 'This domain is already in use by another account.');

/** Settings > Branding: the account's name, logo and colour, with what its custom domain needs. */
export async function readBrandingSettings(deps: Deps, session: Session): Promise<BrandingSettings> {
  const { accountId } = session;
  const [branding, account] = await deps.db.tenant(accountId, (trx) =>
    Promise.all([
      readBranding(trx, accountId),
      trx.selectFrom('accounts').select('domain_challenge').where('id', '=', accountId).executeTakeFirstOrThrow(),
    ]),
  );
  const answer: BrandingSettings = {
    ...branding,
    cnameTarget: deps.config.cnameTarget,
    domainChallenge: account.domain_challenge,
  };
  return answer;
}

/** Saves the name, logo (sanitised SVG) and colour; audited only when something changed. */
export async function updateBranding(deps: Deps, session: Session, input: BrandingUpdate): Promise<Branding> {
  let logo: string;
  // The sanitiser brings jsdom, seconds of loading: it loads with the first logo, not at start.
  const { decodeAndSanitizeLogo, SvgRejected } = await import('./svg');
  try {
    logo = decodeAndSanitizeLogo(input.logo);
  } catch (err) {
    if (err instanceof SvgRejected) throw new ApiError(400, 'LOGO_INVALID', err.message, { logo: err.message });
    throw err;
  }
  const branding = await deps.db.tenant(session.accountId, async (trx) => {
    const before = await trx
      .selectFrom('branding')
      .selectAll()
      .where('account_id', '=', session.accountId)
      .forUpdate()
      .executeTakeFirst();
    const changed = [
      before?.name !== input.name && 'name',
      (before?.logo ?? '') !== logo && 'logo',
      before?.color !== input.color && 'color',
    ].filter((x): x is string => Boolean(x));
    if (changed.length === 0) return readBranding(trx, session.accountId);
    await trx
      .insertInto('branding')
      .values({ account_id: session.accountId, name: input.name, logo, color: input.color, domain: null })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({ name: input.name, logo, color: input.color, updated_at: deps.now() }),
      )
      .execute();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Updated the branding (${changed.join(', ')})`,
      event: 'branding.updated',
    });
    return readBranding(trx, session.accountId);
  });
  return branding;
}

/**
 * Claims a custom domain and checks its DNS: a CNAME to our host AND a TXT record
 * `_switchboard-challenge.<domain>` holding this account's token, which proves the domain is
 * this account's (a CNAME alone would let any account claim a domain pointed at us). The claim
 * is kept while DNS propagates, so the console can show the verifying state and re-check; a
 * check that finds either record missing answers 422 DNS_INVALID (naming which in `fields`), a
 * resolver failure 502 DNS_CHECK_FAILED. Only a verified claim holds the domain against other
 * accounts. `domain: null` removes it.
 */
export async function setCustomDomain(deps: Deps, session: Session, domain: string | null): Promise<Branding> {
  const { db, config, now } = deps;

  if (domain !== null) {
    // Another account's claim is only visible to this explicit cross-account check; all it
    // tells the caller is that the name is taken.
    // A pending claim elsewhere does not count: only proof of ownership holds a domain.
    const claimed = await db.system((trx) =>
      trx
        .selectFrom('branding')
        .select('account_id')
        .where('domain', '=', domain)
        .where('domain_is_verified', '=', true)
        .where('account_id', '<>', session.accountId)
        .executeTakeFirst(),
    );
    if (claimed) throw domainTaken();
  }

  let check: DomainCheck | 'failed' = { cname: false, txt: false };
  if (domain !== null) {
    try {
      const { domain_challenge: token } = await db.tenant(session.accountId, (trx) =>
        trx.selectFrom('accounts').select('domain_challenge').where('id', '=', session.accountId).executeTakeFirstOrThrow(),
      );
      check = await checkDomain(domain, { target: config.cnameTarget, txtName: challengeName(domain), token }, config.dnsServers);
    } catch (err) {
      if (!(err instanceof DnsCheckError)) throw err;
      deps.log(`DNS check for ${domain} failed`, err);
      check = 'failed';
    }
  }
  const verified = check !== 'failed' && check.cname && check.txt;

  let branding: Branding;
  try {
    branding = await db.tenant(session.accountId, async (trx) => {
      const before = await trx
        .selectFrom('branding')
        .select(['domain', 'domain_is_verified'])
        .where('account_id', '=', session.accountId)
        .forUpdate()
        .executeTakeFirst();
      const account = await trx
        .selectFrom('accounts')
        .select('name')
        .where('id', '=', session.accountId)
        .executeTakeFirstOrThrow();
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
              ? [`The DNS records of the custom domain ${domain} no longer verify it`, 'domain.unverified']
              : [`Set the custom domain ${domain} (waiting for DNS)`, 'domain.claimed'];
      await audit(trx, session.accountId, actorOf(session), { namespace: 'global', description, event });
      return readBranding(trx, session.accountId);
    });
  } catch (err) {
    // two accounts racing for the same name: the unique index decides
    if (isUniqueViolation(err)) throw domainTaken();
    throw err;
  }

  if (check !== 'failed' && !verified && domain !== null) {
    const missing: Record<string, string> = {};
    if (!check.cname) missing.cname = `No CNAME record pointing at ${config.cnameTarget} was found for ${domain}`;
    if (!check.txt) missing.txt = `No TXT record with this account's verification value was found at ${challengeName(domain)}`;
    throw new ApiError(422, DNS_INVALID, DNS_INVALID_MESSAGE, missing);
  }
  if (check === 'failed') throw new ApiError(502, DNS_CHECK_FAILED, DNS_CHECK_FAILED_MESSAGE);
  return branding;
}
