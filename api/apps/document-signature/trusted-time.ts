import fs from 'node:fs';
import type { Config } from '../../config';
import { outboundPolicy } from '../../integrations/outbound';
import { certsFromPem } from './pades/asn1';
import type { TsaSettings } from './pades/timestamp';

// The provider's time-stamping authority (operator configuration):
//   SIGNING_TSA_URL            the TSA's RFC 3161 address (http or https)
//   SIGNING_TSA_CA_FILE        PEM file of the CA(s) its tokens must chain to (required with the URL)
//   SIGNING_TSA_TIMEOUT_MS     one request's time limit (default 10000)
//   SIGNING_TSA_GRACE_SECONDS  how long after signing a seal waits for a TSA that does not answer
//                              (the job retries every run) before it seals B-B and says so
//                              on the certificate page (default 3600)
// Without SIGNING_TSA_URL seals are PAdES B-B and the certificate page says so.

export class TrustedTimeConfigError extends Error {}

let cached: { key: string; settings: TsaSettings | null } | null = null;

export function providerTsa(config: Pick<Config, 'raw' | 'outboundAllowHosts' | 'outboundCa'>): TsaSettings | null {
  const url = config.raw.SIGNING_TSA_URL;
  const caFile = config.raw.SIGNING_TSA_CA_FILE;
  const key = `${url ?? ''}|${caFile ?? ''}|${config.raw.SIGNING_TSA_TIMEOUT_MS ?? ''}|${config.outboundAllowHosts.join(',')}`;
  if (cached?.key === key) return cached.settings;
  let settings: TsaSettings | null = null;
  if (url) {
    if (!caFile)
      throw new TrustedTimeConfigError(
        'SIGNING_TSA_URL needs SIGNING_TSA_CA_FILE: the CA certificate(s) its timestamp tokens chain to.',
      );
    const trust = certsFromPem(fs.readFileSync(caFile, 'utf8'));
    if (!trust.length) throw new TrustedTimeConfigError(`SIGNING_TSA_CA_FILE (${caFile}) holds no PEM certificate.`);
    const timeoutMs = Number(config.raw.SIGNING_TSA_TIMEOUT_MS ?? 10_000);
    // the operator chose this address: it is reached even on a private network or over http
    const { host } = new URL(url);
    const policy = outboundPolicy(config);
    settings = { url, trust, timeoutMs, policy: { ...policy, allowHosts: [...(policy.allowHosts ?? []), host] } };
  }
  cached = { key, settings };
  return settings;
}

/** How long after signing a seal may wait for the TSA, in ms. */
export const tsaGraceMs = (config: Pick<Config, 'raw'>) => Number(config.raw.SIGNING_TSA_GRACE_SECONDS ?? 3600) * 1000;
