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
import { fillDocTimestamp, lastByteRange } from './pades/dss';
import type { Cert } from './pades/asn1';
import { providerTsa, tsaGraceMs } from './trusted-time';

// One seal, to the PAdES baselines (ETSI EN 319 142-1 clause 6): a certification signature
// (DocMDP P=2, pdf.ts) that is B-B always; B-T when a time-stamping authority is configured and
// answers; B-LTA when, besides, the revocation data of every certificate could be had: the DSS
// and a document time-stamp over the whole file in one incremental update (pades/dss.ts). A B-B
// or B-T seal gets nothing after its signature (the file ends with it), so any later update shows
// as one. B-LT (a DSS with no document time-stamp after it) is no longer made: its unsigned
// update looked the same to a validator as any other appended change; seals made before keep it.
//
// When the TSA does not answer: within the grace time after signing the seal is not made (the
// error goes up, the request stays 'signed', the job tries again on its next run); past it the
// seal is made B-B and its certificate page says the TSA did not answer. A seal is never held
// back for long, and never claims a timestamp it does not carry. If the TSA answers the
// signature's time-stamp but not the document time-stamp, the seal stays B-T.
//
// The PDF work (stamping, the certificate page, the DSS revision) runs in the PDF worker
// (pdf-sandbox.ts) within the account's limits; the signature itself, which needs the key and
// may call the TSA, is made here over the byte range the worker left room for.

export type SealLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

export type SealOutcome = {
  sealed: Buffer;
  contentSha256: string;
  level: SealLevel;
  timestamp: Timestamp | null;
  timestampError: string | null;
};

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
      {
        kind: 'prepare-seal',
        original: input.original,
        values: input.values,
        certificate: { ...input.certificate, seal },
        sealedBy: cert.subject,
        signingTime: input.signingTime,
      },
      limits,
      concurrency,
    );
    const sealed = await new SignPdf().sign(
      Buffer.from(prepared.withPlaceholder),
      new CadesSigner(cert, timestamper),
      input.signingTime,
    );
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
    signed = await build({
      ...statement,
      noTimestampReason: timestampError
        ? `the time-stamping authority (${tsa!.url}) did not answer: ${timestampError.replace(/[.\s]+$/, '')}`
        : null,
    });
  }

  const ts = timestamp as Timestamp | null;
  // B-B: no time-stamp to cover validation data, so nothing follows the signature
  if (!ts || !tsa)
    return { sealed: signed.sealed, contentSha256: signed.contentSha256, level: 'B-B', timestamp: ts, timestampError };
  const certs = unique([cert.signer.certificate, ...cert.signer.chain, ts.tsa, ...ts.chain]);
  const { crls, complete } = await fetchCrls(certs, { ...outboundPolicy(deps.config), timeoutMs: 10_000 });
  if (!complete)
    return { sealed: signed.sealed, contentSha256: signed.contentSha256, level: 'B-T', timestamp: ts, timestampError };
  const prepared = Buffer.from(
    await runPdfTask(
      { kind: 'append-ltv', pdf: signed.sealed, data: { certs: certs.map((c) => c.der), crls, ocsps: [] } },
      limits,
      concurrency,
    ),
  );
  try {
    const docTimestamp = await requestTimestamp(tsa, lastByteRange(prepared).covered);
    return {
      sealed: fillDocTimestamp(prepared, docTimestamp.token),
      contentSha256: signed.contentSha256,
      level: 'B-LTA',
      timestamp: ts,
      timestampError,
    };
  } catch (err) {
    if (!(err instanceof TsaUnavailable)) throw err;
    return { sealed: signed.sealed, contentSha256: signed.contentSha256, level: 'B-T', timestamp: ts, timestampError: null };
  }
}

function unique(certs: Cert[]): Cert[] {
  const seen = new Set<string>();
  return certs.filter((c) => !seen.has(c.x509.fingerprint256) && seen.add(c.x509.fingerprint256));
}
