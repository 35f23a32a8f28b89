import type { Deps } from '../../deps';
import { outboundPolicy } from '../../integrations/outbound';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import type { Certificate, SealStatement, StampValue } from './pdf';
import type { SigningCertificate } from './signing-certificate';
import { requestTimestamp, TsaUnavailable, type Timestamp } from './pades/timestamp';
import { cadesDetached, type Timestamper } from './pades/cades';
import { runPdfTask } from './pdf-sandbox';
import { pdfConcurrency, pdfLimits, SEAL_TIME_FACTOR } from './pdf-limits';
import { fetchCrls } from './pades/revocation';
import type { Cert } from './pades/asn1';
import { providerTsa, tsaGraceMs } from './trusted-time';

// One seal, to the PAdES baselines: B-B always; B-T when a time-stamping authority is
// configured and answers; then the validation data as an incremental update (B-LT when every
// certificate's revocation data could be had).
//
// When the TSA does not answer: within the grace time after signing the seal is not made (the
// error goes up, the request stays 'signed', the job tries again on its next run); past it the
// seal is made B-B and its certificate page says the TSA did not answer. A seal is never held
// back for long, and never claims a timestamp it does not carry.
//
// The PDF work (stamping, the certificate page, the DSS revision) runs in the PDF worker
// (pdf-sandbox.ts) within the account's limits; the signature itself, which needs the key and
// may call the TSA, is made here over the byte range the worker left room for.

export type SealLevel = 'B-B' | 'B-T' | 'B-LT';

export type SealOutcome = { sealed: Buffer; contentSha256: string; level: SealLevel; timestamp: Timestamp | null; timestampError: string | null };

export type SealInput = {
  original: Uint8Array;
  values: StampValue[];
  certificate: Omit<Certificate, 'seal'>;
  signingTime: Date;
  /** when the customer signed: the grace for an absent TSA counts from here */
  signedAt: Date;
};

/** @signpdf hands us the bytes of the byte range; we answer with the CAdES signature. */
class CadesSigner extends Signer {
  constructor(
    private readonly cert: SigningCertificate,
    private readonly timestamper: Timestamper | undefined,
  ) {
    super();
  }
  override async sign(content: Buffer): Promise<Buffer> {
    return cadesDetached(content, this.cert.signer, this.timestamper);
  }
}

export async function sealToPades(deps: Deps, input: SealInput, cert: SigningCertificate): Promise<SealOutcome> {
  const tsa = providerTsa(deps.config);
  const statement: SealStatement = { subject: cert.subject, owner: cert.owner, tsaUrl: null, noTimestampReason: null };
  const parse = pdfLimits(deps.config);
  const limits = { ...parse, timeMs: parse.timeMs * SEAL_TIME_FACTOR };
  const concurrency = pdfConcurrency(deps.config);
  const build = async (seal: SealStatement, timestamper?: Timestamper) => {
    const prepared = await runPdfTask(
      { kind: 'prepare-seal', original: input.original, values: input.values, certificate: { ...input.certificate, seal }, sealedBy: cert.subject, signingTime: input.signingTime },
      limits,
      concurrency,
    );
    const sealed = await new SignPdf().sign(Buffer.from(prepared.withPlaceholder), new CadesSigner(cert, timestamper), input.signingTime);
    return { sealed, contentSha256: prepared.contentSha256 };
  };

  let timestamp: Timestamp | null = null;
  let timestampError: string | null = null;
  let signed: Awaited<ReturnType<typeof build>> | null = null;
  if (tsa) {
    try {
      signed = await build({ ...statement, tsaUrl: tsa.url }, async (signature) => {
        timestamp = await requestTimestamp(tsa, signature);
        return timestamp.token;
      });
    } catch (err) {
      if (!(err instanceof TsaUnavailable)) throw err;
      if (deps.now().getTime() - input.signedAt.getTime() < tsaGraceMs(deps.config)) throw err;
      timestampError = err.message;
    }
  }
  if (!signed) {
    signed = await build({ ...statement, noTimestampReason: timestampError ? `the time-stamping authority (${tsa!.url}) did not answer: ${timestampError}` : null });
  }

  const ts = timestamp as Timestamp | null;
  const certs = unique([cert.signer.certificate, ...cert.signer.chain, ...(ts ? [ts.tsa, ...ts.chain] : [])]);
  const { crls, complete } = await fetchCrls(certs, { ...outboundPolicy(deps.config), timeoutMs: 10_000 });
  const sealed = Buffer.from(await runPdfTask({ kind: 'append-dss', pdf: signed.sealed, data: { certs: certs.map((c) => c.der), crls, ocsps: [] } }, limits, concurrency));
  const level: SealLevel = ts ? (complete ? 'B-LT' : 'B-T') : 'B-B';
  return { sealed, contentSha256: signed.contentSha256, level, timestamp: ts, timestampError };
}

function unique(certs: Cert[]): Cert[] {
  const seen = new Set<string>();
  return certs.filter((c) => !seen.has(c.x509.fingerprint256) && seen.add(c.x509.fingerprint256));
}
