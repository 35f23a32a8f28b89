import type { SelectHTMLAttributes } from 'react';
import { LOCALE_ENGLISH_NAMES, LOCALE_NAMES, LOCALES } from '../../api/contract/locales';

/** A choice of callers' languages (English name, then its own), with `none` as the empty choice. */
export function LocaleSelect({ none, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { none: string }) {
  return (
    <select className="input" {...props}>
      <option value="">{none}</option>
      {LOCALES.map((l) => (
        <option key={l} value={l}>
          {LOCALE_ENGLISH_NAMES[l]} ({LOCALE_NAMES[l]})
        </option>
      ))}
    </select>
  );
}
