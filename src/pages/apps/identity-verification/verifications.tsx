import { lazy } from 'react';
import { useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_COLUMNS, IDV_STATUSES } from '../../../../api/contract/apps/identity-verification';
import { ActivityList } from '../_frame/ActivityList';
import { NEEDS_REVIEW, needsReviewHref, VerificationViews } from './views';

// Every verification, or (view=needs-review) the review queue; opening one shows it in the queue's
// view, with the waiting cases beside it.

const ReviewQueue = lazy(() => import('./queue'));

export default function Verifications({ app }: { app: AppDefinition }) {
  const search = useSearch();
  if (new URLSearchParams(search).get('view') === NEEDS_REVIEW) return <ReviewQueue app={app} />;
  return (
    <ActivityList
      app={app}
      title="Verifications"
      noun="Verification"
      columns={IDV_COLUMNS}
      statuses={IDV_STATUSES}
      openHref={needsReviewHref}
      views={<VerificationViews current="all" />}
    />
  );
}
