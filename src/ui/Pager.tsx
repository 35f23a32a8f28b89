import { Button } from './Button';
import { formatNumber } from './format';

type PagerProps = {
  /** names the navigation, e.g. 'Audit log pages' */
  label: string;
  /** 0 for the first page */
  pageIndex: number;
  pageSize: number;
  /** rows on this page */
  shown: number;
  /** all rows, when known */
  count: number | undefined;
  /** where the API stops counting: a count this high reads "of 1,000+" */
  countCap?: number;
  loading: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
};

/** Previous/Next for lists paged by key, with "51–100 of 1,234". */
export function KeysetPager({
  label,
  pageIndex,
  pageSize,
  shown,
  count,
  countCap,
  loading,
  hasNext,
  onPrevious,
  onNext,
}: PagerProps) {
  const first = pageIndex * pageSize + 1;
  const total =
    count !== undefined && countCap !== undefined && count >= countCap ? `${formatNumber(countCap)}+` : formatNumber(count ?? 0);
  return (
    <nav className="pager" aria-label={label}>
      <span className="muted" aria-live="polite">
        {count !== undefined && shown > 0 ? `${formatNumber(first)}–${formatNumber(first + shown - 1)} of ${total}` : ''}
      </span>
      <Button size="sm" disabled={pageIndex === 0 || loading} onClick={onPrevious}>
        Previous
      </Button>
      <Button size="sm" disabled={!hasNext || loading} onClick={onNext}>
        Next
      </Button>
    </nav>
  );
}
