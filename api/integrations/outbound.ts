import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { Agent, buildConnector, Dispatcher } from 'undici';

// undici is loaded with the first outbound call (webhook, log shipping, SMS), not with every start.
type Undici = typeof import('undici');
let undiciModule: Promise<Undici> | null = null;
export const loadUndici = (): Promise<Undici> => (undiciModule ??= import('undici'));
import { errorText } from '../http/error-text';

// Every call the server makes to an address a customer typed in (lookup endpoints, log
// collectors, webhooks) goes through here. Checking the URL alone is not enough: a public
// name can resolve to 10.0.0.1, and Node's fetch never calls a lookup hook for literal IPs.
// So the check happens where the socket is opened: literal IPs are checked as they are, names
// are resolved once (every address must be public) and the socket is pinned to the checked
// address, so a second, different DNS answer cannot slip in between check and connect.

export type OutboundErrorCode = 'TARGET_NOT_ALLOWED' | 'TIMEOUT' | 'RESPONSE_TOO_LARGE' | 'TOO_MANY_REDIRECTS' | 'NETWORK_ERROR';

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export type OutboundPolicy = {
  /**
   * Hosts admitted even over plain http and on private or loopback addresses, as `host` or
   * `host:port` (IPv6 in brackets). Empty in production; tests and development name their
   * loopback peers here (OUTBOUND_ALLOW_HOSTS).
   */
  allowHosts?: readonly string[];
  /** extra PEM certificates to trust besides the public roots (a test or development CA) */
  ca?: string;
  /**
   * Admit plain http to public addresses. Only for objects that carry their own signature and
   * are published over http by custom (CRLs, timestamp replies); the address rules still apply.
   */
  plainHttp?: boolean;
};

export type OutboundOptions = OutboundPolicy & {
  /** whole exchange, connect to last body byte; default 10 s */
  timeoutMs?: number;
  /** largest response body read; default 1 MiB */
  maxBytes?: number;
  /** redirects followed (each target checked again); default 0: a redirect is an error */
  maxRedirects?: number;
  /** for tests: how names resolve */
  lookup?: LookupAll;
};

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export type OutboundResponse = {
  status: number;
  ok: boolean;
  headers: Headers;
  /** the URL that answered (after redirects) */
  url: string;
  body: Buffer;
  text(): string;
  json(): unknown;
};

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
};

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

const defaultLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** 2000::/3, the only IPv6 space allocated as global unicast; all else is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * The IPv4 address an IPv6 address carries, for the forms that carry one: IPv4-compatible
 * (::/96, e.g. [::127.0.0.1]), IPv4-mapped and -translated, NAT64 (64:ff9b::/96, /48),
 * 6to4 (2002::/16) and Teredo (2001::/32, client address inverted in the last 32 bits).
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const w = address.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 6)) return v4(w[6]!, w[7]!);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6]!, w[7]!);
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6]!, w[7]!);
  if (w[0] === 0x64 && w[1] === 0xff9b) return v4(w[6]!, w[7]!);
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!);
  if (w[0] === 0x2001 && w[1] === 0) return v4(w[6]! ^ 0xffff, w[7]! ^ 0xffff);
  return null;
}

/** Why an address may not be called, or null when it is an ordinary public address. */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') {
    // Only plain public unicast passes: this refuses private, loopback, link-local (and with
    // it the 169.254.169.254 metadata service), CGNAT, documentation, benchmarking, reserved.
    const range = parsed.range();
    return range === 'unicast' ? null : `is a ${range} address`;
  }
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'unspecified' || range === 'loopback') return `is a ${range} address`;
  // Every form that embeds an IPv4 address is refused outright (a relay or translator can
  // reach it); naming the embedded address says why when it is a private one.
  const inner = embeddedIPv4(v6);
  if (inner && inner.range() !== 'unicast') return `embeds ${inner.toString()}, a ${inner.range()} address`;
  if (range !== 'unicast') return `is a ${range} address`;
  if (inner) return `embeds the IPv4 address ${inner.toString()}`;
  if (!v6.match(GLOBAL_UNICAST_V6)) return 'is not a global unicast address';
  return null;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function normaliseAllowEntry(entry: string): string {
  return entry.trim().toLowerCase();
}

/** True when the policy admits this host (and port) without the public-address rule. */
export function isAllowlisted(policy: OutboundPolicy, hostname: string, port: string): boolean {
  const list = (policy.allowHosts ?? []).map(normaliseAllowEntry).filter(Boolean);
  if (!list.length) return false;
  const host = hostname.toLowerCase();
  const bracketed = net.isIPv6(stripBrackets(host)) ? `[${stripBrackets(host)}]` : host;
  return list.includes(bracketed) || list.includes(`${bracketed}:${port}`) || list.includes(stripBrackets(host));
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** Checks a URL before any connection: scheme and, for literal IPs, the address. */
export function checkUrl(raw: string | URL, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('TARGET_NOT_ALLOWED', 'The address is not a valid URL.');
  }
  if (url.username || url.password)
    throw new OutboundError('TARGET_NOT_ALLOWED', 'Addresses with a user name or password are not allowed.');
  const port = url.port || defaultPort(url.protocol);
  const allowed = isAllowlisted(policy, url.hostname, port);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (allowed || policy.plainHttp))) {
    throw new OutboundError('TARGET_NOT_ALLOWED', 'Only https:// addresses can be called.');
  }
  const host = stripBrackets(url.hostname);
  if (!allowed && net.isIP(host)) {
    const reason = refusedAddressReason(host);
    if (reason) throw new OutboundError('TARGET_NOT_ALLOWED', `${host} ${reason} and cannot be called.`);
  }
  return url;
}

/**
 * An undici connector that refuses non-public targets at connect time and pins names to the
 * addresses it checked.
 */
function guardedConnector(undici: Undici, policy: OutboundPolicy, lookup: LookupAll): buildConnector.connector {
  const connect = undici.buildConnector({ timeout: 10_000, ...(policy.ca ? { ca: [...tls.rootCertificates, policy.ca] } : {}) });
  return (options, callback) => {
    const hostname = stripBrackets(options.hostname);
    const port = options.port || defaultPort(options.protocol);
    const allowed = isAllowlisted(policy, hostname, port);
    if (net.isIP(hostname)) {
      const reason = allowed ? null : refusedAddressReason(hostname);
      if (reason) return callback(new OutboundError('TARGET_NOT_ALLOWED', `${hostname} ${reason} and cannot be called.`), null);
      return connect(options, callback);
    }
    lookup(hostname).then(
      (addresses) => {
        if (!addresses.length) return callback(new OutboundError('NETWORK_ERROR', `${hostname} does not resolve.`), null);
        for (const a of addresses) {
          const reason = allowed ? null : refusedAddressReason(a.address);
          if (reason)
            return callback(
              new OutboundError('TARGET_NOT_ALLOWED', `${hostname} resolves to ${a.address}, which ${reason}.`),
              null,
            );
        }
        // `host` keeps the name for SNI and certificate checks; the socket goes to the checked address.
        connect(
          {
            ...options,
            hostname: addresses[0].address,
            host: options.host ?? options.hostname,
            servername: options.servername || hostname,
          },
          callback,
        );
      },
      (err: NodeJS.ErrnoException) =>
        callback(new OutboundError('NETWORK_ERROR', `${hostname} does not resolve (${err.code ?? 'lookup failed'}).`), null),
    );
  };
}

const agents = new Map<string, Agent>();

function agentFor(undici: Undici, policy: OutboundPolicy, lookup: LookupAll | undefined): Dispatcher {
  if (lookup) return new undici.Agent({ connect: guardedConnector(undici, policy, lookup) });
  const key = `${(policy.allowHosts ?? []).join(',')}|${policy.ca ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new undici.Agent({ connect: guardedConnector(undici, policy, defaultLookup), keepAliveTimeout: 4_000 });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * The guarded connection pool, for clients that build their own HTTP requests (the S3 SDK's
 * request handler in api/storage/s3.ts): the same connect-time address checks and DNS pinning.
 */
export async function outboundDispatcher(policy: OutboundPolicy): Promise<Dispatcher> {
  return agentFor(await loadUndici(), policy, undefined);
}

function unwrap(err: unknown, timedOut: boolean, sent: OutboundInit): OutboundError {
  if (timedOut) return new OutboundError('TIMEOUT', 'The request timed out.');
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof OutboundError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  // a network error code says enough; a message may quote what we sent (headers, body)
  const code = (err as { cause?: { code?: unknown } })?.cause?.code;
  const detail =
    typeof code === 'string' && /^[A-Z0-9_]+$/.test(code)
      ? code
      : errorText(err, { secrets: sentSecrets(sent), max: 200 }) || 'unknown error';
  return new OutboundError('NETWORK_ERROR', `The request failed (${detail}).`);
}

/** Everything of a request that may be a credential: every header value and the body. */
function sentSecrets(sent: OutboundInit): string[] {
  return [...Object.values(sent.headers ?? {}), typeof sent.body === 'string' ? sent.body : ''];
}

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, abort: () => void): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      abort();
      await reader.cancel().catch(() => {});
      throw new OutboundError('RESPONSE_TOO_LARGE', `The response is larger than ${maxBytes} bytes.`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * fetch for addresses chosen by customers: https only (unless allowlisted), public addresses
 * only, redirects not followed blindly, bounded in time and size. Throws OutboundError.
 */
export async function outboundFetch(
  url: string | URL,
  init: OutboundInit = {},
  options: OutboundOptions = {},
): Promise<OutboundResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 0;
  const undici = await loadUndici();
  const dispatcher = agentFor(undici, options, options.lookup);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  init.signal?.addEventListener('abort', onAbort, { once: true });
  let target = checkUrl(url, options);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  try {
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<Undici['fetch']>>;
      try {
        res = await undici.fetch(target, {
          method,
          headers: init.headers,
          body,
          redirect: 'manual',
          signal: controller.signal,
          dispatcher,
        });
      } catch (err) {
        throw unwrap(err, timedOut, init);
      }
      if (REDIRECTS.has(res.status)) {
        await res.body?.cancel().catch(() => {});
        const location = res.headers.get('location');
        if (!location || hop >= maxRedirects) {
          throw new OutboundError(
            'TOO_MANY_REDIRECTS',
            maxRedirects
              ? 'The address redirected too many times.'
              : errorText(
                  `The address answered with a redirect (${res.status}${location ? ` to ${location}` : ''}); redirects are not followed.`,
                ),
          );
        }
        target = checkUrl(new URL(location, target), options);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      let buffer: Buffer;
      try {
        buffer = await readCapped(res.body as ReadableStream<Uint8Array> | null, maxBytes, () => controller.abort());
      } catch (err) {
        if (err instanceof OutboundError) throw err;
        throw unwrap(err, timedOut, init);
      }
      const finalUrl = target.toString();
      return {
        status: res.status,
        ok: res.status >= 200 && res.status < 300,
        headers: res.headers as unknown as Headers,
        url: finalUrl,
        body: buffer,
        text: () => buffer.toString('utf8'),
        json: () => JSON.parse(buffer.toString('utf8')),
      };
    }
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', onAbort);
    if (options.lookup) void dispatcher.close().catch(() => {});
  }
}

/** The status an API answers when an outbound call was refused or failed. */
export function outboundErrorStatus(err: OutboundError): 422 | 502 | 504 {
  if (err.code === 'TARGET_NOT_ALLOWED') return 422;
  if (err.code === 'TIMEOUT') return 504;
  return 502;
}

/** The outbound policy a configuration sets (allowlist and extra trusted certificates). */
export function outboundPolicy(config: { outboundAllowHosts: string[]; outboundCa?: string | undefined }): OutboundPolicy {
  return { allowHosts: config.outboundAllowHosts, ca: config.outboundCa };
}
