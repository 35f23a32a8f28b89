import { Resolver } from 'node:dns/promises';

// Custom-domain verification: the customer points their domain at our fixed host with a CNAME,
// and we ask DNS, really. The servers are configurable (DNS_SERVERS) so tests and air-gapped
// installs can use their own resolver.

export type CnameCheck = 'verified' | 'invalid';

/** The resolver could not answer (server failure, timeout, refused): not the customer's fault. */
export class DnsCheckError extends Error {
  constructor(readonly code: string) {
    super(`DNS lookup failed: ${code}`);
  }
}

/** Answers that mean "the record is not there (yet)". */
const NOT_THERE = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

const normalise = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

export async function checkCname(domain: string, target: string, servers: string[], timeoutMs = 3000): Promise<CnameCheck> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length) resolver.setServers(servers);
  try {
    const names = await resolver.resolveCname(domain);
    return names.some((name) => normalise(name) === normalise(target)) ? 'verified' : 'invalid';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (NOT_THERE.has(code)) return 'invalid';
    throw new DnsCheckError(code);
  }
}
