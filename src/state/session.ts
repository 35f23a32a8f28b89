import { atom } from 'jotai';
import type { AppBilling } from '../../api/contract/billing';
import type { AppId } from '../../api/contract/apps';
import type { Bootstrap } from '../../api/contract/session';
import { decodeToken, storeToken } from './token';
import { setConsoleTimeZone } from '../ui/format';

const rawTokenAtom = atom<string | null>(null);

/** The session token. Writing it persists it and drops the bootstrap of the previous token. */
export const tokenAtom = atom(
  (get) => get(rawTokenAtom),
  (_get, set, token: string | null) => {
    storeToken(token);
    set(rawTokenAtom, token);
    set(bootstrapAtom, null);
  },
);

/** The token's payload (account id, role, ghost flag), read but not verified. */
export const payloadAtom = atom((get) => decodeToken(get(rawTokenAtom)));

const rawBootstrapAtom = atom<Bootstrap | null>(null);

/**
 * Who is signed in, their account, billing per app and branding; null until loaded. Setting it
 * also sets the zone every console date is shown in (the account's time zone).
 */
export const bootstrapAtom = atom(
  (get) => get(rawBootstrapAtom),
  (get, set, update: Bootstrap | null | ((current: Bootstrap | null) => Bootstrap | null)) => {
    const next = typeof update === 'function' ? update(get(rawBootstrapAtom)) : update;
    setConsoleTimeZone(next?.account.timeZone);
    set(rawBootstrapAtom, next);
  },
);

/** Sets one app's billing, e.g. with the answer of a free-trial start. */
export const setAppBillingAtom = atom(null, (get, set, { app, billing }: { app: AppId; billing: AppBilling }) => {
  const current = get(bootstrapAtom);
  if (current) set(bootstrapAtom, { ...current, billing: { ...current.billing, [app]: billing } });
});
