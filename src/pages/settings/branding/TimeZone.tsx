import { useAtomValue, useSetAtom } from 'jotai';
import { useMemo, useState } from 'react';
import type { AccountTimeZone } from '../../../../api/contract/time-zone';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { apiFields, useFormErrors } from '../../../ui/form';
import { formatDateTime } from '../../../ui/format';

/** Every zone the browser knows (IANA names), the account's own first if the list lacks it. */
function zones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = known.includes('UTC') ? known : ['UTC', ...known];
  return all.includes(current) ? all : [current, ...all];
}

/** "Time zone": the zone every date is shown in, in the console and on customer pages and PDFs. Owners change it. */
export function TimeZoneCard() {
  const api = useApi();
  const bootstrap = useAtomValue(bootstrapAtom);
  const setBootstrap = useSetAtom(bootstrapAtom);
  const owner = bootstrap?.role === 'owner';
  const query = useQuery('account-time-zone', (a, signal) => a.get<AccountTimeZone>('/account-time-zone', { signal }));
  const [choice, setChoice] = useState<string | null>(null);
  const current = choice ?? query.data?.timeZone ?? 'UTC';
  const options = useMemo(() => zones(current), [current]);
  const formErrors = useFormErrors();
  const save = async () => {
    try {
      const saved = await api.put<AccountTimeZone>('/account-time-zone', { timeZone: current });
      setChoice(null);
      formErrors.clear();
      query.reload();
      // every date on screen follows at once
      setBootstrap((b) => (b ? { ...b, account: { ...b.account, timeZone: saved.timeZone } } : b));
      toast.success('The time zone has been saved');
    } catch (err) {
      const field = apiFields(err)?.timeZone;
      if (field) throw formErrors.invalid({ timeZone: field });
      toast.error('The time zone could not be saved', errorMessage(err));
      throw err;
    }
  };
  return (
    <Card title="Time zone">
      <QueryState query={query}>
        {() => (
          <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Time zone" ref={formErrors.ref}>
            <Field
              label="Account time zone"
              error={formErrors.errors.timeZone}
              hint={`Dates in the console (in each admin's language), on customer pages and in sealed PDFs are shown in this zone. Now: ${formatDateTime(Date.now())}.${owner ? '' : ' Only the owner can change it.'}`}
            >
              {(control) => (
                <select className="input" {...control} value={current} disabled={!owner} onChange={(e) => (setChoice(e.target.value), formErrors.clear())}>
                  {options.map((z) => (
                    <option key={z} value={z}>
                      {z.replace(/_/g, ' ')}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {owner && (
              <div className="form-actions">
                <Button variant="primary" type="submit" onClick={save} successLabel="Saved" failureLabel="Not saved" disabled={choice === null}>
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
