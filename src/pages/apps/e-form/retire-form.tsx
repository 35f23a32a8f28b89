import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { FormDeleted, FormDetail, FormSummary } from '../../../../api/contract/apps/e-form';
import { errorMessage } from '../../../api/client';
import { useApi } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { toast } from '../../../ui/Toast';

// Delete, archive or restore a form, after a confirmation that says what stays. A form never
// published is deleted (nothing was ever sent with it); one that was published is archived once
// closed, keeping its submissions (the rule and its reasons are in api/apps/e-form/lifecycle.ts).

type Retirable = Pick<FormSummary, 'id' | 'title' | 'status' | 'version' | 'submissions' | 'archivedAt'>;
type Step = {
  label: string;
  title: string;
  description: string;
  path: string;
  method: 'delete' | 'post';
  done: string;
  destructive: boolean;
};

function stepFor(form: Retirable): Step | null {
  const name = form.title.trim() || 'Untitled form';
  if (form.archivedAt) {
    return {
      label: 'Restore',
      title: `Restore "${name}"?`,
      description: 'It comes back to the Forms list, closed. Publish it again to let agents send it.',
      path: 'restore',
      method: 'post',
      done: `"${name}" is restored`,
      destructive: false,
    };
  }
  if (form.version === null) {
    return {
      label: 'Delete',
      title: `Delete the draft "${name}"?`,
      description: 'It was never published, so nothing was sent with it. It is deleted for good.',
      path: '',
      method: 'delete',
      done: `"${name}" is deleted`,
      destructive: true,
    };
  }
  if (form.status === 'closed') {
    const kept = form.submissions
      ? `Its ${form.submissions} submission${form.submissions === 1 ? ' stays' : 's stay'} in Submissions and the export.`
      : 'Its versions and history are kept.';
    return {
      label: 'Archive',
      title: `Archive "${name}"?`,
      description: `It leaves the Forms list and agents cannot send it. ${kept} You can restore it later.`,
      path: 'archive',
      method: 'post',
      done: `"${name}" is archived`,
      destructive: false,
    };
  }
  // a published form still takes requests: Close it first
  return null;
}

export function RetireForm({
  app,
  form,
  onDone,
  size,
}: {
  app: AppDefinition;
  form: Retirable;
  onDone: (form: FormDetail | null) => void;
  size?: 'sm' | 'md';
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const step = stepFor(form);
  if (!step) return null;
  const run = async () => {
    try {
      const path = `/${app.id}/forms/${form.id}${step.path ? `/${step.path}` : ''}`;
      const answer = step.method === 'delete' ? await api.delete<FormDeleted>(path) : await api.post<FormDetail>(path);
      toast.success(step.done);
      onDone('deleted' in answer ? null : answer);
    } catch (err) {
      toast.error(`"${form.title.trim() || 'Untitled form'}" could not be changed`, errorMessage(err), err);
      throw err;
    }
  };
  return (
    <>
      <Button
        size={size}
        variant={step.destructive ? 'danger' : 'secondary'}
        aria-label={`${step.label} ${form.title.trim() || 'Untitled form'}`}
        onClick={() => setOpen(true)}
      >
        {step.label}
      </Button>
      <ConfirmDialog
        open={open}
        title={step.title}
        description={step.description}
        confirmLabel={step.label}
        destructive={step.destructive}
        onConfirm={run}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
