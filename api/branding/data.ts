import type { Selectable } from 'kysely';
import type { Trx } from '../db/index';
import type { BrandingTable } from '../db/schema';
import type { Branding } from '../contract/branding';

export const DEFAULT_BRAND_COLOR = '#2563EB';

/** The branding answer: the row keeps cleaned SVG text, the wire carries it base64-encoded. */
export function brandingOf(
  row: Pick<Selectable<BrandingTable>, 'name' | 'logo' | 'color' | 'domain' | 'domain_is_verified'> | undefined,
  accountName: string,
): Branding {
  return {
    name: row?.name ?? accountName,
    logo: row?.logo ? Buffer.from(row.logo, 'utf8').toString('base64') : '',
    color: row?.color ?? DEFAULT_BRAND_COLOR,
    domain: row?.domain ?? null,
    domainIsVerified: row?.domain_is_verified ?? false,
  };
}

export async function readBranding(trx: Trx, accountId: string): Promise<Branding> {
  const account = await trx.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirstOrThrow();
  const row = await trx.selectFrom('branding').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  return brandingOf(row, account.name);
}
