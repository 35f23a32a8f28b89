import type { Trx } from '../db/index';
import { APPS, type AppId } from '../contract/apps';
import { CREDIT_WARNING_RATIO, type AppBilling, type Usage } from '../contract/billing';

export function usageOf(credits: number, freeTier: number): Usage {
  const status =
    freeTier > 0 && credits >= freeTier
      ? 'exhausted'
      : freeTier > 0 && credits >= freeTier * CREDIT_WARNING_RATIO
        ? 'near-limit'
        : 'ok';
  return { status, credits, freeTier };
}

type Row = {
  app: string;
  status: AppBilling['status'];
  trial_ends_at: Date | string | null;
  credits: number;
  free_tier: number;
  payment_failed_at?: Date | string | null;
};

export function billingOf(row: Row | undefined): AppBilling {
  if (!row) return { status: 'inactive', trialEndsAt: null };
  return {
    status: row.status,
    trialEndsAt: row.trial_ends_at ? new Date(row.trial_ends_at).toISOString() : null,
    usage: row.status === 'inactive' ? undefined : usageOf(row.credits, row.free_tier),
    ...(row.payment_failed_at && row.status === 'subscription' ? { paymentFailed: true } : {}),
  };
}

/** Billing of every app for the account; apps without a row are inactive. */
export async function billingByApp(trx: Trx, accountId: string): Promise<Record<AppId, AppBilling>> {
  const rows = await trx
    .selectFrom('app_billing')
    .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier', 'payment_failed_at'])
    .where('account_id', '=', accountId)
    .execute();
  return billingOfRows(rows);
}

/** Billing of every app from the account's rows; apps without a row are inactive. */
export function billingOfRows(rows: Row[]): Record<AppId, AppBilling> {
  const byApp = new Map(rows.map((r) => [r.app, r]));
  return Object.fromEntries(APPS.map((a) => [a.id, billingOf(byApp.get(a.id))])) as Record<AppId, AppBilling>;
}
