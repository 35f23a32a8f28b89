import { useAtomValue } from 'jotai';
import type { CustomerLanguage, Locale } from '../../../../api/contract/locales';
import { bootstrapAtom } from '../../../state/session';
import { LocaleSelect } from '../../../ui/LocaleSelect';
import { AccountChoiceCard } from './AccountChoiceCard';

/** The value of the "browser decides" choice in the select (a locale is never empty). */
const BROWSER = '';

/** "Customers' default language": what customer pages and SMS texts speak when the agent picks none. Admins change it. */
export function CustomerLanguageCard() {
  const role = useAtomValue(bootstrapAtom)?.role;
  const canSave = role === 'owner' || role === 'admin';
  return (
    <AccountChoiceCard<CustomerLanguage>
      title="Customers' default language"
      path="/customer-language"
      valueOf={(answer) => answer?.locale ?? BROWSER}
      body={(value) => ({ locale: value === BROWSER ? null : (value as Locale) })}
      field="locale"
      label="Language of customer pages and SMS texts"
      hint={`Used when the agent does not choose a language when sending. Callers can switch on the page.${canSave ? '' : ' Only an admin can change it.'}`}
      canSave={canSave}
      savedMessage="Customers' default language has been saved"
      notSavedMessage="Customers' default language could not be saved"
    >
      {(control, value, choose) => (
        <LocaleSelect
          none="Each caller's browser language (SMS in English)"
          {...control}
          value={value}
          disabled={!canSave}
          onChange={(e) => choose(e.target.value)}
        />
      )}
    </AccountChoiceCard>
  );
}
