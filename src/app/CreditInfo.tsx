import { useAtomValue } from 'jotai';
import type { AppDefinition } from '../../api/contract/apps';
import type { Usage } from '../../api/contract/billing';
import { CREDIT_WARNING_RATIO } from '../../api/contract/constants';
import { useQuery } from '../api/hooks';
import { bootstrapAtom } from '../state/session';
import { formatNumber, formatUsage } from '../ui/format';
import { FollowLive } from './lazy-live';

/** How often the credit count is re-read while the live stream cannot be opened. */
const FALLBACK_MS = 60_000;

/** Whether usage has reached the share of the free tier at which the display turns red. */
export function isCreditWarning(usage: Pick<Usage, 'credits' | 'freeTier'>): boolean {
  return usage.freeTier > 0 && usage.credits >= usage.freeTier * CREDIT_WARNING_RATIO;
}

/** Credits used by the current app against its free tier, re-read when the app's credit usage changes (live). */
export function CreditInfo({ app }: { app: AppDefinition }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  const status = bootstrap?.billing[app.id]?.status;
  const show = app.billable && status !== undefined && status !== 'inactive';
  const { data, reload } = useQuery(show ? `usage:${app.id}:${status}` : null, (api, signal) =>
    api.get<Usage>(`${app.id}/billing/usage`, { signal }),
  );
  if (!show) return null;
  const warning = data ? isCreditWarning(data) : false;
  return (
    <>
      <FollowLive match={(c) => c.kind === 'credits' && c.app === app.id} onChange={reload} fallbackMs={FALLBACK_MS} />
      {data && (
        <span
          className={warning ? 'credit-info credit-warning' : 'credit-info'}
          data-warning={warning || undefined}
          data-testid="credit-info"
        >
          {warning && (
            <span className="credit-mark" aria-hidden="true">
              ⚠{' '}
            </span>
          )}
          {/* in a narrow panel the figure and the word stack on two lines (styles.css) */}
          <span className="credit-figure">
            {data.freeTier > 0 ? formatUsage(data.credits, data.freeTier) : formatNumber(data.credits)}
          </span>{' '}
          credits
          {warning && <span className="sr-only"> (close to the free tier limit)</span>}
        </span>
      )}
    </>
  );
}
