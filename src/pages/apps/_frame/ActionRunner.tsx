import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import type { AppId } from '../../../../api/contract/apps';
import type { ActionResult, ActionsUnavailable, AppAction } from '../../../../api/contract/platform';
import { isPhoneNumber, PHONE_MESSAGE } from '../../../../api/contract/sms';
import { errorMessage, type Api } from '../../../api/client';
import { useLiveChanges } from '../../../api/live';
import { Button } from '../../../ui/Button';
import { Field, TextField } from '../../../ui/Field';
import { LocaleSelect } from '../../../ui/LocaleSelect';
import { apiFields, FormError, useFormErrors, type FieldErrors } from '../../../ui/form';
import { StatusBadge } from './task-cells';
import { ChoicePicker } from './ChoicePicker';
import { bootstrapAtom } from '../../../state/session';

// Runs an app's agent actions in order (for OTP: send a passcode, then check the code) and
// follows the task's status until it ends: the tab's live stream says when the task changed
// (api/live), and only then is its status read. The same runner serves "Send to a customer" on
// the dashboard and the Agent Preview in the desktop hosts; only the client (session) differs.

/** how often a pending task is re-read when the live stream cannot be opened at all */
export const FALLBACK_POLL_MS = 5000;

export const actionPath = (app: AppId, key: string) => `/${app}/actions/${encodeURIComponent(key)}`;
/** where a running task's status is read while it is pending */
export const taskStatusPath = (app: AppId, taskId: string) => `/${app}/tasks/${encodeURIComponent(taskId)}/status`;
/** what a `choice` field of an action offers (the picker's list) */
export const choicesPath = (app: AppId, key: string, field: string) =>
  `${actionPath(app, key)}/choices/${encodeURIComponent(field)}`;

/** Checks an action's input on this side first, with the same words the server uses. */
export function checkActionInput(action: AppAction, input: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of action.fields) {
    const value = (input[field.name] ?? '').trim();
    if (field.required && !value)
      errors[field.name] =
        field.kind === 'choice' ? `Choose a ${field.label.toLowerCase()} from the list` : `${field.label} is required`;
    else if (value && field.kind === 'phone' && !isPhoneNumber(value)) errors[field.name] = PHONE_MESSAGE;
  }
  return errors;
}

function ActionForm({
  api,
  app,
  action,
  onRun,
  disabled,
}: {
  api: Api;
  app: AppId;
  action: AppAction;
  onRun: (input: Record<string, string>) => Promise<void>;
  disabled?: boolean;
}) {
  const [input, setInput] = useState<Record<string, string>>({});
  const formErrors = useFormErrors();
  const errors = formErrors.errors;
  const [failure, setFailure] = useState<string | null>(null);

  const run = async () => {
    setFailure(null);
    const found = checkActionInput(action, input);
    if (Object.keys(found).length) throw formErrors.invalid(found);
    formErrors.clear();
    const trimmed = Object.fromEntries(
      Object.entries(input)
        .map(([k, v]) => [k, v.trim()])
        .filter(([, v]) => v),
    );
    try {
      await onRun(trimmed);
    } catch (error) {
      const fields = apiFields(error);
      if (fields)
        throw formErrors.invalid(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^input\./, ''), v])));
      setFailure(errorMessage(error));
      throw error;
    }
  };
  return (
    <form
      className="form action-form"
      onSubmit={(e: FormEvent) => e.preventDefault()}
      noValidate
      aria-label={action.label}
      ref={formErrors.ref}
    >
      <p className="muted">{action.description}</p>
      {/* an action that cannot run now (unavailable) is shown switched off, never as a form that fails */}
      <fieldset className="fieldset" disabled={disabled}>
        {action.fields.map((field) =>
          field.kind === 'choice' ? (
            <ChoicePicker
              key={field.name}
              api={api}
              path={choicesPath(app, action.key, field.name)}
              label={field.label}
              name={field.name}
              required={field.required}
              placeholder={field.placeholder}
              empty={field.empty}
              error={errors[field.name]}
              value={input[field.name] ?? ''}
              onChange={(id) => setInput((s) => ({ ...s, [field.name]: id }))}
            />
          ) : field.kind === 'locale' ? (
            <Field key={field.name} label={field.label} error={errors[field.name]}>
              {(control) => (
                <LocaleSelect
                  none="The account's default"
                  name={field.name}
                  {...control}
                  value={input[field.name] ?? ''}
                  onChange={(e) => setInput((s) => ({ ...s, [field.name]: e.target.value }))}
                />
              )}
            </Field>
          ) : (
            <TextField
              key={field.name}
              label={field.label}
              name={field.name}
              required={field.required}
              type={field.kind === 'email' ? 'email' : field.kind === 'phone' ? 'tel' : 'text'}
              inputMode={field.kind === 'code' ? 'numeric' : undefined}
              autoComplete={field.kind === 'code' ? 'one-time-code' : 'off'}
              placeholder={field.placeholder}
              value={input[field.name] ?? ''}
              error={errors[field.name]}
              onChange={(e) => setInput((s) => ({ ...s, [field.name]: e.target.value }))}
            />
          ),
        )}
        <FormError message={failure} />
        <div className="form-actions">
          <Button
            type="submit"
            variant={action.secondary ? 'secondary' : 'primary'}
            disabled={disabled}
            onClick={run}
            successLabel="Done"
          >
            {action.label}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

type RunnerProps = {
  api: Api;
  app: AppId;
  actions: AppAction[];
  /** told whenever the task changes, so a page can refresh what it lists */
  onChange?: (result: ActionResult) => void;
  /** why the actions cannot run now (GET /api/{app}/actions): said once, the forms switched off */
  unavailable?: ActionsUnavailable | null;
};

/**
 * Where an admin mends a state that keeps the actions off, when it is one they can mend here. '~/'
 * names the console's root: the runner sits inside an app's nest.
 */
const MEND: Partial<Record<string, { href: string; label: string }>> = {
  STRIPE_NOT_CONNECTED: { href: '~/payments/settings/stripe', label: 'Connect Stripe' },
  STRIPE_ACCESS_REVOKED: { href: '~/payments/settings/stripe', label: 'Connect Stripe again' },
};

export function ActionRunner({ api, app, actions, onChange, unavailable }: RunnerProps) {
  // the Agent Preview has no bootstrap (an agent's session): it is told the state, offered no link
  const role = useAtomValue(bootstrapAtom)?.role;
  const mend = unavailable && (role === 'admin' || role === 'owner') ? MEND[unavailable.code] : undefined;
  const [result, setResult] = useState<ActionResult | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const starters = actions.filter((a) => !a.needsTask);
  const followUps = actions.filter((a) => a.needsTask);
  const pending = result ? (result.open ?? result.status === 'pending') : false;
  // the follow-ups that apply to the task now (a signed document being sealed offers none)
  const offered = result?.followUps ? followUps.filter((a) => result.followUps!.includes(a.key)) : followUps;

  // the status re-reads do not say where the text went: the send's answer does, kept for the task
  const [outbox, setOutbox] = useState(false);
  const update = (next: ActionResult) => {
    if (next.taskId !== result?.taskId) setOutbox(Boolean(next.devOutbox));
    else if (next.devOutbox) setOutbox(true);
    setResult(next);
    onChangeRef.current?.(next);
  };

  // While the task is pending its status can change elsewhere (expiry, the customer, the API).
  const taskId = result && pending ? result.taskId : null;
  const follow = () => {
    if (!taskId) return;
    api.get<ActionResult>(taskStatusPath(app, taskId)).then(
      (next) =>
        setResult((current) =>
          current?.taskId === taskId &&
          (current.status !== next.status ||
            current.message !== next.message ||
            current.open !== next.open ||
            String(current.followUps) !== String(next.followUps))
            ? (onChangeRef.current?.(next), next)
            : current,
        ),
      () => {},
    );
  };
  const live = useLiveChanges(
    (c) => taskId !== null && c.kind === 'task' && c.ref === taskId,
    follow,
    taskId ? FALLBACK_POLL_MS : null,
  );
  // a change made before the stream was (back) up is read once it is
  useEffect(() => {
    if (live === 'live') follow();
  }, [live, taskId]); // eslint-disable-line react-hooks/exhaustive-deps

  const run = (action: AppAction) => async (input: Record<string, string>) => {
    const body = { input, ...(action.needsTask && result ? { taskId: result.taskId } : {}) };
    update(await api.create<ActionResult>(actionPath(app, action.key), body));
  };

  return (
    <div className="action-runner">
      {unavailable && !result && (
        <p className="notice notice-warning" role="status" data-testid="actions-unavailable" data-code={unavailable.code}>
          {unavailable.message}
          {mend && (
            <>
              {' '}
              <Link href={mend.href}>{mend.label}</Link>
            </>
          )}
        </p>
      )}
      {(result ? (pending ? offered.filter((a) => !a.secondary) : []) : starters).map((action) => (
        <ActionForm key={action.key} api={api} app={app} action={action} onRun={run(action)} disabled={!!unavailable} />
      ))}
      <div aria-live="polite" className="action-status">
        {result &&
          (result.failed ? (
            // the last step failed (a wrong code): an error with what is left, not the pending status
            <div className="notice notice-error" role="alert" data-testid="action-status">
              {result.message}
            </div>
          ) : (
            <div
              className={`notice ${pending ? '' : result.status === 'approved' || result.status === 'succeeded' ? 'notice-success' : 'notice-warning'}`}
              data-testid="action-status"
            >
              <StatusBadge status={result.status} /> {result.message}
            </div>
          ))}
        {result && outbox && (
          <p className="action-outbox">
            {/* a tab of its own: the task here keeps being followed (the hosts' bundle has no router either) */}
            <a href="/dev/sms-outbox" target="_blank" rel="noopener">
              Open the development outbox
            </a>{' '}
            to read the text as the customer gets it.
          </p>
        )}
      </div>
      {/* the way out (cancel the link) comes after what is happening, never as the main button */}
      {pending &&
        offered
          .filter((a) => a.secondary)
          .map((action) => <ActionForm key={action.key} api={api} app={app} action={action} onRun={run(action)} />)}
      {result && !pending && (
        <Button size="sm" variant="ghost" onClick={() => setResult(null)}>
          Start over
        </Button>
      )}
    </div>
  );
}
