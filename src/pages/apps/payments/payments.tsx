import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import { PAYMENT_COLUMNS, PAYMENT_STATUSES, type Payment } from '../../../../api/contract/apps/payments';
import { formatMinor, parseMajor } from '../../../../api/contract/money';
import type { TaskDetail } from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi } from '../../../api/hooks';
import { useIsAdmin } from './role';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { TextField } from '../../../ui/Field';
import { toast } from '../../../ui/Toast';
import { ActivityList } from '../_frame/ActivityList';

/** Refund (admins): the whole amount left, or part of it, after a confirmation. */
function Refund({ task, onDone }: { task: TaskDetail; onDone: () => void }) {
  const api = useApi();
  const amount = Number(task.values.amount);
  const currency = String(task.values.currency);
  const left = amount - Number(task.values.refunded ?? 0);
  const [text, setText] = useState('');
  const [confirming, setConfirming] = useState(false);
  if (!(task.status === 'succeeded' || task.status === 'partially_refunded') || left <= 0) return null;
  const typed = text.trim() ? parseMajor(text, currency) : left;
  const error =
    typed === null
      ? `Type an amount such as ${formatMinor(left, currency)}`
      : typed > left
        ? `At most ${formatMinor(left, currency)} is left to refund`
        : null;
  return (
    <div className="refund">
      <h3 className="card-title">Refund</h3>
      <TextField
        label={`Amount in ${currency.toUpperCase()}`}
        hint={`Empty refunds all that is left: ${formatMinor(left, currency)}.`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        inputMode="decimal"
        error={error}
      />
      <Button variant="danger" disabled={!!error} onClick={() => setConfirming(true)}>
        Refund
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Refund ${typed ? formatMinor(typed, currency) : ''}?`}
        description={`The customer gets ${typed ? formatMinor(typed, currency) : ''} back on their card from your Stripe account. This cannot be undone.`}
        confirmLabel="Refund"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            const done = await api.post<Payment>(`/payments/tasks/${task.id}/refund`, typed === left ? {} : { amount: typed });
            toast.success(`Refunded: ${formatMinor(done.refundedAmount, currency)} in all`);
            setText('');
            onDone();
          } catch (err) {
            toast.error('The refund was not made', errorMessage(err), err);
            throw err;
          }
        }}
      />
    </div>
  );
}

export default function Payments({ app }: { app: AppDefinition }) {
  const admin = useIsAdmin();
  return (
    <ActivityList
      app={app}
      title="Payments"
      noun="Payment"
      columns={PAYMENT_COLUMNS}
      statuses={PAYMENT_STATUSES}
      taskActions={admin ? (task, reload) => <Refund task={task} onDone={reload} /> : undefined}
    />
  );
}
