import { useState } from 'react';
import {
  ApiRateLimitBodySchema,
  BURST_SECONDS,
  DEFAULT_API_RATE_LIMIT,
  type ApiRateLimit,
} from '../../../../api/contract/api-limits';
import { useApi } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { TextField } from '../../../ui/Field';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';

/** Watch Tower: provider staff set an account's /api/v1 rate limit (audited in the account's log). */
export function ApiRateLimitCard({ accountId, initial }: { accountId: string; initial: ApiRateLimit }) {
  const api = useApi();
  const [limit, setLimit] = useState(initial);
  const [value, setValue] = useState(initial.isDefault ? '' : String(initial.perSecond));
  const formErrors = useFormErrors();
  const fields = formErrors.errors;

  const save = async (perSecond: number | null) => {
    const checked = check(ApiRateLimitBodySchema, { perSecond });
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      const saved = await api.put<ApiRateLimit>(
        `watch-tower/accounts/${encodeURIComponent(accountId)}/api-rate-limit`,
        checked.value,
      );
      setLimit(saved);
      setValue(saved.isDefault ? '' : String(saved.perSecond));
      toast.success(`The API rate limit is ${saved.perSecond} requests a second`);
    } catch (error) {
      const invalid = formErrors.fromAnswer(error);
      if (invalid) throw invalid;
      toast.error('The rate limit could not be changed', errorMessage(error), error);
      throw error;
    }
  };

  return (
    <Card title="API rate limit">
      <p className="muted">
        Now {limit.perSecond} requests a second, bursts of {limit.burst}
        {limit.isDefault ? ' (the default)' : ''}. The bucket holds {BURST_SECONDS} seconds of the rate.
      </p>
      <form className="form" noValidate aria-label="API rate limit" onSubmit={(e) => e.preventDefault()} ref={formErrors.ref}>
        <TextField
          label="Requests per second"
          inputMode="numeric"
          value={value}
          placeholder={String(DEFAULT_API_RATE_LIMIT.perSecond)}
          hint={`Blank: the default, ${DEFAULT_API_RATE_LIMIT.perSecond}.`}
          error={fields.perSecond}
          onChange={(e) => setValue(e.target.value)}
        />
        <div className="form-actions">
          <Button
            type="submit"
            variant="primary"
            successLabel="Saved"
            failureLabel="Not saved"
            onClick={() => save(value.trim() === '' ? null : Number(value))}
          >
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}
