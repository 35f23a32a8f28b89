import { Resolver } from 'node:dns/promises';

// Custom-domain verification: the customer points their domain at our fixed host with a CNAME
// and proves it is theirs with a TXT record carrying their account's token, and we ask DNS,
// really. The servers are configurable (DNS_SERVERS) so tests and air-gapped installs can use
// their own resolver.

/** What DNS holds for a domain: each record is either there as required or not (yet). */
export type DomainCheck = { cname: boolean; txt: boolean };

/** The resolver could not answer (server failure, timeout, refused): not the customer's fault. */
export class DnsCheckError extends Error {
  constructor(readonly code: string) {
    super(`DNS lookup failed: ${code}`);
  }
}

/** Answers that mean "the record is not there (yet)". */
const NOT_THERE = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

const normalise = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

function resolverFor(servers: string[], timeoutMs: number) {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length) resolver.setServers(servers);
  return resolver;
}

/** Runs a lookup; "no such record" is an empty answer, any other failure a DnsCheckError. */
async function lookup<T>(run: () => Promise<T[]>): Promise<T[]> {
  try {
    return await run();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (NOT_THERE.has(code)) return [];
    throw new DnsCheckError(code);
  }
}

/**
 * Both records a custom domain needs: the CNAME at `domain` pointing at `target`, and a TXT
 * record at `txtName` whose value is exactly `token` (other TXT values there are ignored, so a
 * domain may carry several accounts' tokens while it moves between them).
 */
export async function checkDomain(
  domain: string,
  { target, txtName, token }: { target: string; txtName: string; token: string },
  servers: string[],
  timeoutMs = 3000,
): Promise<DomainCheck> {
  const resolver = resolverFor(servers, timeoutMs);
  const [names, texts] = await Promise.all([
    lookup(() => resolver.resolveCname(domain)),
    lookup(() => resolver.resolveTxt(txtName)),
  ]);
  return {
    cname: names.some((name) => normalise(name) === normalise(target)),
    // a long TXT value arrives split in 255-byte strings: a record is its strings joined
    txt: texts.some((chunks) => chunks.join('').trim() === token),
  };
}

/** Whether a TXT record at `txtName` holds exactly `token` (the ownership proof alone, no CNAME). */
export async function hasTxtToken(txtName: string, token: string, servers: string[], timeoutMs = 3000): Promise<boolean> {
  const resolver = resolverFor(servers, timeoutMs);
  const texts = await lookup(() => resolver.resolveTxt(txtName));
  return texts.some((chunks) => chunks.join('').trim() === token);
}
