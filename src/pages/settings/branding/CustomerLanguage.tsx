import { useState } from 'react';
import type { CustomerLanguage, Locale } from '../../../../api/contract/locales';
import { LocaleSelect } from '../../../ui/LocaleSelect';
import { useApi, useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';

/** The value of the "browser decides" choice in the select (a locale is never empty). */
const BROWSER = '';

/** "Customers' default language": what customer pages and SMS texts speak when the agent picks none. */
export function CustomerLanguageCard() {
  const api = useApi();
  const query = useQuery('customer-language', (a, signal) => a.get<CustomerLanguage>('/customer-language', { signal }));
  const [choice, setChoice] = useState<string | null>(null);
  const current = choice ?? query.data?.locale ?? BROWSER;
  const save = async () => {
    try {
      const body: CustomerLanguage = { locale: current === BROWSER ? null : (current as Locale) };
      await api.put<CustomerLanguage>('/customer-language', body);
      setChoice(null);
      query.reload();
      toast.success("Customers' default language has been saved");
    } catch (error) {
      toast.error("Customers' default language could not be saved", errorMessage(error));
      throw error;
    }
  };
  return (
    <Card title="Customers' default language">
      <QueryState query={query}>
        {() => (
          <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Customers' default language">
            <Field label="Language of customer pages and SMS texts" hint="Used when the agent does not choose a language when sending. Callers can switch on the page.">
              {(control) => (
                <LocaleSelect none="Each caller's browser language (SMS in English)" {...control} value={current} onChange={(e) => setChoice(e.target.value)} />
              )}
            </Field>
            <div className="form-actions">
              <Button variant="primary" type="submit" onClick={save} successLabel="Saved" failureLabel="Not saved" disabled={choice === null}>
                Save
              </Button>
            </div>
          </form>
        )}
      </QueryState>
    </Card>
  );
}
