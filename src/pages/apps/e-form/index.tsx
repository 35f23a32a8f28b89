import type { AppDefinition } from '../../../../api/contract/apps';
import { EFORM_COLUMNS } from '../../../../api/contract/apps/e-form';
import type { DashboardAnswer } from '../../../../api/contract/platform';
import { Card } from '../../../ui/Card';
import { formatNumber } from '../../../ui/format';
import { Dashboard, type FirstTaskHelp } from '../_frame/Dashboard';

export const FIRST_TASK: FirstTaskHelp = {
  actionLabel: 'Send a form',
  curl: (origin) => `curl ${origin}/api/v1/forms/<form id>/requests \\
  -H "Authorization: Bearer $SWITCHBOARD_SECRET_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"phoneNumber": "+15551234567", "customerRef": "CUST-1", "prefill": {"caseId": "CASE-1"}}'`,
};

const STEPS = [
  { key: 'sent', label: 'Sent' },
  { key: 'opened', label: 'Opened' },
  { key: 'submitted', label: 'Submitted' },
] as const;

/** Sent → opened → submitted over the period, each step as a share of what was sent. */
export function Funnel({ data }: { data: DashboardAnswer }) {
  const total = (key: string) => data.series.find((s) => s.key === key)?.points.reduce((sum, p) => sum + p.value, 0) ?? 0;
  const sent = total('sent');
  return (
    <Card title="Funnel">
      <ol className="eform-funnel" aria-label="Funnel: sent, opened, submitted">
        {STEPS.map((step) => {
          const n = total(step.key);
          const share = sent ? Math.round((n / sent) * 1000) / 10 : 0;
          return (
            <li key={step.key} className="eform-funnel-step" data-testid={`funnel-${step.key}`}>
              <span className="eform-funnel-label">{step.label}</span>
              <span className="eform-funnel-bar" aria-hidden="true">
                <span className="eform-funnel-fill" style={{ width: `${sent ? (n / sent) * 100 : 0}%` }} />
              </span>
              <span className="eform-funnel-value">
                {formatNumber(n)} ({share}%)
              </span>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

export default function EFormDashboard({ app }: { app: AppDefinition }) {
  return (
    <Dashboard
      app={app}
      columns={EFORM_COLUMNS}
      firstTask={FIRST_TASK}
      taskNoun="submissions"
      extra={(data) => <Funnel data={data} />}
    />
  );
}
