import { JOURNEY_EVENT_TYPES, JOURNEY_STEP_APPS } from '../../../../api/contract/journeys';
import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  WebhookEndpointBodySchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointBody,
  type WebhookQueued,
} from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card, EmptyState } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { formatDate, formatDateTime } from '../../../ui/format';
import { check, FormError, useFormErrors } from '../../../ui/form';
import { ConfigNav } from './ConfigNav';
import { StatusBadge } from './task-cells';

const base = (app: AppDefinition) => `/${app.id}/webhooks`;
/** an app that can be a journey's step offers the journeys' events too (off until ticked: docs/apps/journeys.md) */
const journeyStep = (app: AppDefinition) => (JOURNEY_STEP_APPS as readonly string[]).includes(app.id);

function EndpointDialog({
  app,
  endpoint,
  eventTypes,
  onClose,
  onSaved,
}: {
  app: AppDefinition;
  endpoint: WebhookEndpoint | null;
  eventTypes: readonly string[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const [form, setForm] = useState<WebhookEndpointBody>({
    url: endpoint?.url ?? 'https://',
    eventTypes: endpoint?.eventTypes ?? [...eventTypes],
    enabled: endpoint?.enabled ?? true,
    fullPhoneNumbers: endpoint?.fullPhoneNumbers ?? false,
  });
  const formErrors = useFormErrors();
  const errors = formErrors.errors;
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setFailure(null);
    const checked = check(WebhookEndpointBodySchema, form);
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      if (endpoint) await api.put(`${base(app)}/${endpoint.id}`, checked.value);
      else await api.create(base(app), checked.value);
    } catch (error) {
      const invalid = formErrors.fromAnswer(error);
      if (invalid) throw invalid;
      setFailure(errorMessage(error));
      throw error;
    }
    toast.success(endpoint ? 'The endpoint has been updated' : 'The endpoint has been added');
    onSaved();
  };
  const toggle = (type: string) =>
    setForm((f) => ({
      ...f,
      eventTypes: f.eventTypes.includes(type) ? f.eventTypes.filter((t) => t !== type) : [...f.eventTypes, type],
    }));
  return (
    <Dialog
      open
      onClose={onClose}
      title={endpoint ? 'Edit endpoint' : 'Add an endpoint'}
      description="We POST each event as JSON to this https address, signed in the X-Signature header with your webhook secret."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="webhook-endpoint-form" onClick={save} successLabel="Saved">
            Save
          </Button>
        </>
      }
    >
      <form id="webhook-endpoint-form" className="form" noValidate onSubmit={(e) => e.preventDefault()} ref={formErrors.ref}>
        <TextField
          label="URL"
          type="url"
          required
          value={form.url}
          onChange={(e) => setForm((f) => ({ ...f, url: e.target.value }))}
          error={errors.url}
        />
        <fieldset className="fieldset">
          <legend className="field-label">Events</legend>
          {[...eventTypes, ...(journeyStep(app) ? JOURNEY_EVENT_TYPES : [])].map((type) => (
            <label key={type} className="checkbox">
              <input
                type="checkbox"
                checked={form.eventTypes.includes(type)}
                onChange={() => toggle(type)}
                aria-invalid={errors.eventTypes ? true : undefined}
                aria-describedby={errors.eventTypes ? 'webhook-events-error' : undefined}
              />{' '}
              <code>{type}</code>
            </label>
          ))}
          {errors.eventTypes && (
            <p id="webhook-events-error" className="field-error">
              {errors.eventTypes}
            </p>
          )}
        </fieldset>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.enabled ?? true}
            onChange={(e) => setForm((f) => ({ ...f, enabled: e.target.checked }))}
          />{' '}
          Enabled
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.fullPhoneNumbers ?? false}
            onChange={(e) => setForm((f) => ({ ...f, fullPhoneNumbers: e.target.checked }))}
          />{' '}
          Send full phone numbers
          <span className="field-hint">
            Otherwise events carry them masked (+1 •••• •• 4567). Turn this on only if the receiver needs the number itself.
          </span>
        </label>
        <FormError message={failure} />
      </form>
    </Dialog>
  );
}

function Deliveries({ app, endpoint }: { app: AppDefinition; endpoint: WebhookEndpoint }) {
  const api = useApi();
  const deliveries = useQuery(`${app.id}:deliveries:${endpoint.id}`, (a, signal) =>
    a.get<WebhookDelivery[]>(`${base(app)}/${endpoint.id}/deliveries`, { signal }),
  );
  const resend = (d: WebhookDelivery) => async () => {
    try {
      await api.create<WebhookQueued>(`${base(app)}/deliveries/${d.id}/resend`);
      toast.success('The event has been queued again');
      setTimeout(deliveries.reload, 1500);
    } catch (error) {
      toast.error('The event could not be resent', errorMessage(error), error);
      throw error;
    }
  };
  const columns: Column<WebhookDelivery>[] = [
    { key: 'event', header: 'Event', render: (d) => <code>{d.eventType}</code> },
    { key: 'attempt', header: 'Attempt', render: (d) => d.attempt },
    { key: 'status', header: 'Status', render: (d) => <StatusBadge status={d.status} /> },
    { key: 'code', header: 'Status code', render: (d) => d.statusCode ?? '—' },
    { key: 'duration', header: 'Duration', render: (d) => (d.durationMs == null ? '—' : `${d.durationMs} ms`) },
    { key: 'response', header: 'Response', render: (d) => <span className="excerpt">{d.responseExcerpt ?? '—'}</span> },
    {
      key: 'retry',
      header: 'Next retry',
      render: (d) =>
        d.nextRetryAt ? (
          <time dateTime={d.nextRetryAt} title={formatDateTime(d.nextRetryAt)}>
            {formatDate(d.nextRetryAt)}
          </time>
        ) : (
          '—'
        ),
    },
    {
      key: 'when',
      header: 'Sent',
      render: (d) => (
        <time dateTime={d.createdAt} title={formatDateTime(d.createdAt)}>
          {formatDate(d.createdAt)}
        </time>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'cell-actions',
      render: (d) => (
        <Button size="sm" onClick={resend(d)} aria-label={`Resend ${d.eventType} (attempt ${d.attempt})`} successLabel="Queued">
          Resend
        </Button>
      ),
    },
  ];
  return (
    <div className="deliveries">
      <div className="page-header">
        <h3 className="card-title">Delivery log</h3>
        <Button size="sm" onClick={deliveries.reload}>
          Refresh
        </Button>
      </div>
      <QueryState query={deliveries}>
        {() => (
          <Table
            caption={`Deliveries to ${endpoint.url}`}
            columns={columns}
            rows={deliveries.data}
            rowKey={(d) => d.id}
            empty="No deliveries yet"
          />
        )}
      </QueryState>
    </div>
  );
}

function EndpointCard({
  app,
  endpoint,
  onEdit,
  onDelete,
}: {
  app: AppDefinition;
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const api = useApi();
  const [log, setLog] = useState(false);
  const [version, setVersion] = useState(0);
  const sendTest = async () => {
    try {
      await api.create<WebhookQueued>(`${base(app)}/${endpoint.id}/test`);
      toast.success('A test event has been queued');
      setLog(true);
      // the worker delivers it within moments: show the log once it has had the chance
      setTimeout(() => setVersion((v) => v + 1), 1500);
    } catch (error) {
      toast.error('The test event could not be sent', errorMessage(error), error);
      throw error;
    }
  };
  return (
    <Card
      className="webhook-endpoint"
      title={endpoint.url}
      actions={
        <span className={endpoint.enabled ? 'badge badge-success' : 'badge badge-danger'}>
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </span>
      }
    >
      {endpoint.disabledReason && <p className="notice notice-warning">{endpoint.disabledReason}</p>}
      <p className="muted">
        Events:{' '}
        {endpoint.eventTypes.map((t) => (
          <code key={t}>{t} </code>
        ))}
      </p>
      <div className="form-actions">
        <Button size="sm" onClick={sendTest} successLabel="Queued">
          Send test event
        </Button>
        <Button size="sm" onClick={() => setLog((v) => !v)} aria-expanded={log}>
          {log ? 'Hide delivery log' : 'Delivery log'}
        </Button>
        <Button size="sm" onClick={onEdit} aria-label={`Edit ${endpoint.url}`}>
          Edit
        </Button>
        <Button size="sm" variant="danger" onClick={onDelete} aria-label={`Delete ${endpoint.url}`}>
          Delete
        </Button>
      </div>
      {log && <Deliveries key={version} app={app} endpoint={endpoint} />}
    </Card>
  );
}

/** Configuration > Webhooks: the app's endpoints, a test event each, and what was delivered. */
export function Webhooks({ app, eventTypes }: { app: AppDefinition; eventTypes: readonly string[] }) {
  const api = useApi();
  const endpoints = useQuery(`${app.id}:webhooks`, (a, signal) => a.get<WebhookEndpoint[]>(base(app), { signal }));
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const remove = async (endpoint: WebhookEndpoint) => {
    try {
      await api.delete(`${base(app)}/${endpoint.id}`);
      toast.success('The endpoint has been deleted');
      setDeleting(null);
      endpoints.reload();
    } catch (error) {
      toast.error('The endpoint could not be deleted', errorMessage(error), error);
      throw error;
    }
  };
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{app.title}: Webhooks</h1>
        <Button variant="primary" onClick={() => setEditing('new')}>
          Add endpoint
        </Button>
      </div>
      <ConfigNav app={app} />
      <p className="page-lead">
        Your servers hear about every {app.title} event as it happens. Events: {eventTypes.join(', ')}. See Settings &gt;
        Developers for how to check the signature.
      </p>
      <QueryState query={endpoints}>
        {() =>
          endpoints.data?.length ? (
            endpoints.data.map((e) => (
              <EndpointCard key={e.id} app={app} endpoint={e} onEdit={() => setEditing(e)} onDelete={() => setDeleting(e)} />
            ))
          ) : (
            <Card>
              <EmptyState title="No endpoints yet">Add an https endpoint to receive events.</EmptyState>
            </Card>
          )
        }
      </QueryState>
      {editing && (
        <EndpointDialog
          app={app}
          endpoint={editing === 'new' ? null : editing}
          eventTypes={eventTypes}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            endpoints.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this endpoint?"
        description={deleting ? `${deleting.url} stops receiving events at once, and its delivery log is deleted with it.` : ''}
        confirmLabel="Delete"
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
