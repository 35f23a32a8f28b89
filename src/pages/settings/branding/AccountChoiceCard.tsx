import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, type ControlProps } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { apiFields, useFormErrors } from '../../../ui/form';

/**
 * One account-wide choice made from a list (the account's time zone, customers' default
 * language): read by every role, saved by those who may, with the API's field error shown on
 * the field and a toast either way.
 */
export function AccountChoiceCard<T>(props: {
  title: string;
  /** the API's address of the setting, read with GET and saved with PUT */
  path: string;
  /** the value shown, from the API's answer; `body` makes the PUT body back from it */
  valueOf: (answer: T | undefined) => string;
  body: (value: string) => T;
  /** the field of the PUT body whose error is shown on the control */
  field: string;
  label: string;
  hint: ReactNode;
  canSave: boolean;
  savedMessage: string;
  notSavedMessage: string;
  onSaved?: (answer: T) => void;
  /** the select, given the field's control props, the value and what to call on a change */
  children: (control: ControlProps, value: string, choose: (value: string) => void) => ReactNode;
}) {
  const api = useApi();
  const query = useQuery(props.path, (a, signal) => a.get<T>(props.path, { signal }));
  const [choice, setChoice] = useState<string | null>(null);
  const current = choice ?? props.valueOf(query.data);
  const formErrors = useFormErrors();
  const save = async () => {
    try {
      const saved = await api.put<T>(props.path, props.body(current));
      setChoice(null);
      formErrors.clear();
      query.reload();
      props.onSaved?.(saved);
      toast.success(props.savedMessage);
    } catch (err) {
      const fieldError = apiFields(err)?.[props.field];
      if (fieldError) throw formErrors.invalid({ [props.field]: fieldError });
      toast.error(props.notSavedMessage, errorMessage(err), err);
      throw err;
    }
  };
  const choose = (value: string) => {
    setChoice(value);
    formErrors.clear();
  };
  return (
    <Card title={props.title}>
      <QueryState query={query}>
        {() => (
          <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label={props.title} ref={formErrors.ref}>
            <Field label={props.label} error={formErrors.errors[props.field]} hint={props.hint}>
              {(control) => props.children(control, current, choose)}
            </Field>
            {props.canSave && (
              <div className="form-actions">
                <Button
                  variant="primary"
                  type="submit"
                  onClick={save}
                  successLabel="Saved"
                  failureLabel="Not saved"
                  disabled={choice === null}
                >
                  Save
                </Button>
              </div>
            )}
          </form>
        )}
      </QueryState>
    </Card>
  );
}
