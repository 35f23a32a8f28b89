import { useAtomValue, useSetAtom } from 'jotai';
import type { AccountTimeZone } from '../../../../api/contract/time-zone';
import { bootstrapAtom } from '../../../state/session';
import { formatDateTime } from '../../../ui/format';
import { AccountChoiceCard } from './AccountChoiceCard';

/** Every zone the browser knows (IANA names), the account's own first if the list lacks it. */
function zones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = known.includes('UTC') ? known : ['UTC', ...known];
  return all.includes(current) ? all : [current, ...all];
}

/** "Time zone": the zone every date is shown in, in the console and on customer pages and PDFs. Owners change it. */
export function TimeZoneCard() {
  const owner = useAtomValue(bootstrapAtom)?.role === 'owner';
  const setBootstrap = useSetAtom(bootstrapAtom);
  return (
    <AccountChoiceCard<AccountTimeZone>
      title="Time zone"
      path="/account-time-zone"
      valueOf={(answer) => answer?.timeZone ?? 'UTC'}
      body={(timeZone) => ({ timeZone })}
      field="timeZone"
      label="Account time zone"
      hint={`Dates in the console (in each admin's language), on customer pages and in sealed PDFs are shown in this zone. Now: ${formatDateTime(Date.now())}.${owner ? '' : ' Only the owner can change it.'}`}
      canSave={owner}
      savedMessage="The time zone has been saved"
      notSavedMessage="The time zone could not be saved"
      // every date on screen follows at once
      onSaved={(saved) => setBootstrap((b) => (b ? { ...b, account: { ...b.account, timeZone: saved.timeZone } } : b))}
    >
      {(control, value, choose) => (
        <select className="input" {...control} value={value} disabled={!owner} onChange={(e) => choose(e.target.value)}>
          {zones(value).map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      )}
    </AccountChoiceCard>
  );
}
