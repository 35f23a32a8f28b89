import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { OWNER_LABEL, type AdminItem } from '../../../../api/contract/admins';
import { InvitationCreateSchema, isExpired, type Invitation } from '../../../../api/contract/invitations';
import type { AssignableRole } from '../../../../api/contract/common';
import { ApiError, errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { formatDateTime } from '../../../ui/format';
import { apiFields, check, FormError, useFormErrors } from '../../../ui/form';

const ROLE_LABELS: Record<AssignableRole, string> = { admin: 'Admin', supervisor: 'Supervisor' };

function RoleSelect({
  label,
  value,
  disabled,
  onChange,
}: {
  label: string;
  value: AssignableRole;
  disabled?: boolean;
  onChange: (role: AssignableRole) => void;
}) {
  return (
    <select
      className="input input-sm"
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as AssignableRole)}
    >
      {Object.entries(ROLE_LABELS).map(([role, text]) => (
        <option key={role} value={role}>
          {text}
        </option>
      ))}
    </select>
  );
}

/** 'Expires 3 Jun 2025, 10:00' or 'Expired …', by the invitation's expiresAt; or that it was declined. */
export function expiryLabel(
  invitation: Pick<Invitation, 'expiresAt'> & Partial<Pick<Invitation, 'status'>>,
  now = Date.now(),
): string {
  if (invitation.status === 'accepted-elsewhere') return 'Declined: joined another account';
  return `${isExpired(invitation, now) ? 'Expired' : 'Expires'} ${formatDateTime(invitation.expiresAt)}`;
}

function AddAdminDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const api = useApi();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('admin');
  const formErrors = useFormErrors();
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    setEmail('');
    setRole('admin');
    formErrors.clear();
    setFailure(null);
    onClose();
  };

  const submit = async () => {
    setFailure(null);
    const checked = check(InvitationCreateSchema, { email, role });
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      await api.create<Invitation>('/invitations', checked.value);
      toast.success('Administrator has been added');
      onAdded();
      close();
    } catch (err) {
      // a refusal (already an admin, invited elsewhere…) is about the address typed
      if (err instanceof ApiError && err.status < 500) throw formErrors.invalid(apiFields(err) ?? { email: err.message });
      setFailure(errorMessage(err, 'Please try again later'));
      throw err;
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add an Administrator"
      description="They receive access when they next sign in with this e-mail address."
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" type="submit" form="add-admin-form" onClick={submit} successLabel="Added">
            Add
          </Button>
        </>
      }
    >
      <form id="add-admin-form" className="form" noValidate onSubmit={(e) => e.preventDefault()} ref={formErrors.ref}>
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          required
          error={formErrors.errors.email}
          onChange={(e) => (setEmail(e.target.value), formErrors.clear('email'))}
        />
        <Field label="Role">
          {(control) => (
            <select {...control} className="input" value={role} onChange={(e) => setRole(e.target.value as AssignableRole)}>
              <option value="admin">Admin</option>
              <option value="supervisor">Supervisor</option>
            </select>
          )}
        </Field>
        <FormError message={failure} />
      </form>
    </Dialog>
  );
}

type Pending = { kind: 'revoke'; invitation: Invitation } | { kind: 'archive'; admin: AdminItem } | null;

export default function AdminManagement() {
  const api = useApi();
  const me = useAtomValue(bootstrapAtom);
  const admins = useQuery('admins', (a, signal) => a.get<AdminItem[]>('/admins', { signal }));
  const invitations = useQuery('invitations', (a, signal) => a.get<Invitation[]>('/invitations', { signal }));
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  // role shown while a change is on its way; cleared (reverting on failure) when it settles
  const [optimistic, setOptimistic] = useState<Record<string, AssignableRole>>({});

  const changeRole = async (kind: 'admins' | 'invitations', id: string, role: AssignableRole) => {
    setOptimistic((o) => ({ ...o, [id]: role }));
    try {
      await api.put(`/${kind}/${id}/role`, { role });
      toast.success('Role updated successfully');
      (kind === 'admins' ? admins : invitations).reload();
    } catch {
      toast.error('Failed to update role', 'Please try again later');
    } finally {
      setOptimistic(({ [id]: _, ...rest }) => rest);
    }
  };

  const confirm = async () => {
    if (!pending) return;
    try {
      if (pending.kind === 'revoke') {
        await api.delete('/invitations', { json: { email: pending.invitation.email } });
        toast.success('Invitation has been revoked');
        invitations.reload();
      } else {
        await api.delete(`/admins/${pending.admin.id}`);
        toast.success('Admin has been archived');
        admins.reload();
      }
    } catch (err) {
      toast.error(
        pending.kind === 'revoke' ? 'The invitation could not be revoked' : 'The admin could not be archived',
        errorMessage(err, 'Please try again later'),
        err,
      );
      throw err;
    }
  };

  const invitationColumns: Column<Invitation>[] = [
    { key: 'email', header: 'Email', render: (i) => i.email },
    {
      key: 'role',
      header: 'Role',
      render: (i) => (
        <RoleSelect
          label={`Role of ${i.email}`}
          value={optimistic[i.id] ?? i.role}
          disabled={i.id in optimistic}
          onChange={(r) => changeRole('invitations', i.id, r)}
        />
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (i) => (
        <span className={isExpired(i) || i.status !== 'pending' ? 'badge badge-cancelled' : 'badge badge-free-trial'}>
          {expiryLabel(i)}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'cell-actions',
      render: (i) => (
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Revoke invitation of ${i.email}`}
          onClick={() => setPending({ kind: 'revoke', invitation: i })}
        >
          Revoke
        </Button>
      ),
    },
  ];

  const adminColumns: Column<AdminItem>[] = [
    { key: 'name', header: 'Name', render: (a) => [a.firstName, a.lastName].filter(Boolean).join(' ') || '—' },
    { key: 'email', header: 'Email', render: (a) => a.email },
    {
      key: 'role',
      header: 'Role',
      render: (a) =>
        a.role === 'owner' ? (
          <span className="badge badge-enterprise">{OWNER_LABEL}</span>
        ) : a.id === me?.id ? (
          <span title="You cannot change your own role">{ROLE_LABELS[a.role]} (you)</span>
        ) : (
          <RoleSelect
            label={`Role of ${a.email}`}
            value={optimistic[a.id] ?? a.role}
            disabled={a.id in optimistic}
            onChange={(r) => changeRole('admins', a.id, r)}
          />
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'cell-actions',
      render: (a) =>
        a.role === 'owner' || a.id === me?.id ? null : (
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Archive ${a.email}`}
            onClick={() => setPending({ kind: 'archive', admin: a })}
          >
            Archive
          </Button>
        ),
    },
  ];

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Admin Management</h1>
        <Button variant="primary" onClick={() => setAdding(true)}>
          Add an Administrator
        </Button>
      </div>
      <Card title="Pending invitations">
        {invitations.error ? (
          <p role="alert">{errorMessage(invitations.error)}</p>
        ) : (
          <Table
            caption="Pending invitations"
            columns={invitationColumns}
            rows={invitations.data}
            rowKey={(i) => i.id}
            loading={invitations.loading}
            empty="No pending invitations"
          />
        )}
      </Card>
      <Card title="Administrators">
        {admins.error ? (
          <p role="alert">{errorMessage(admins.error)}</p>
        ) : (
          <Table
            caption="Administrators"
            columns={adminColumns}
            rows={admins.data}
            rowKey={(a) => a.id}
            loading={admins.loading}
            empty="No administrators"
          />
        )}
      </Card>
      <AddAdminDialog open={adding} onClose={() => setAdding(false)} onAdded={invitations.reload} />
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'revoke' ? 'Revoke this invitation?' : 'Archive this admin?'}
        description={
          pending?.kind === 'revoke'
            ? `${pending.invitation.email} will no longer be able to join this account with this invitation.`
            : pending?.kind === 'archive'
              ? `${pending.admin.email} will lose access to the console at once.`
              : ''
        }
        confirmLabel={pending?.kind === 'revoke' ? 'Revoke' : 'Archive'}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}
