import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { HeaderBag, HttpHandlerOptions, HttpRequest, HttpResponse, QueryParameterBag } from '@smithy/types';
import type { Config } from '../config';
import type { StorageTestAnswer, StorageTestFailure } from '../contract/storage';
import { errorText } from '../http/error-text';
import {
  OutboundError,
  checkUrl,
  loadUndici,
  outboundDispatcher,
  outboundPolicy,
  type OutboundPolicy,
} from '../integrations/outbound';

// An account's S3-compatible bucket. The endpoint is typed by a customer, so every request goes
// through the outbound guard (api/integrations/outbound.ts): the SDK is given a request handler
// that opens its sockets through the guarded, DNS-pinned pool instead of Node's http module.
// The SDK is large; it is imported the first time an account actually uses S3.

export type S3Target = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
};

export type S3Config = Pick<Config, 'outboundAllowHosts' | 'outboundCa'>;

export type S3FailureCode = StorageTestFailure | 'TARGET_NOT_ALLOWED' | 'NO_SUCH_KEY';

export class S3Failure extends Error {
  constructor(
    readonly code: S3FailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'S3Failure';
  }
}

// undici refuses these (it manages the connection itself); the SDK adds Expect for large bodies.
const HOP_HEADERS = new Set(['expect', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryString(query: QueryParameterBag | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) parts.push(encode(key));
    else for (const v of Array.isArray(value) ? value : [value]) parts.push(`${encode(key)}=${encode(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function innermostOutbound(err: unknown): OutboundError | null {
  let e: unknown = err;
  for (let i = 0; i < 6 && e; i++) {
    if (e instanceof OutboundError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** The smithy request handler: the SDK's signed request, sent through the outbound guard. */
class GuardedHttpHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };
  constructor(private readonly policy: OutboundPolicy) {}

  async handle(req: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
    const url = `${req.protocol}//${req.hostname}${req.port ? `:${req.port}` : ''}${req.path}${queryString(req.query)}`;
    const target = checkUrl(url, this.policy);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers as HeaderBag)) if (!HOP_HEADERS.has(k.toLowerCase())) headers[k] = v;
    try {
      const res = await (await loadUndici()).request(target, {
        method: req.method as 'GET',
        headers,
        body: req.body as Buffer | Readable | string | undefined,
        dispatcher: await outboundDispatcher(this.policy),
        signal: options.abortSignal as AbortSignal | undefined,
        headersTimeout: 15_000,
        bodyTimeout: 30_000,
      });
      const out: HeaderBag = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
      return { response: { statusCode: res.statusCode, headers: out, body: res.body } };
    } catch (err) {
      const guarded = innermostOutbound(err);
      if (guarded) throw guarded;
      if ((options.abortSignal as AbortSignal | undefined)?.aborted) throw new OutboundError('TIMEOUT', 'The request timed out.');
      const code = (err as { code?: unknown }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
        throw new OutboundError('TIMEOUT', 'The request timed out.');
      const cause = (err as { cause?: { code?: unknown } }).cause?.code ?? code;
      const detail = typeof cause === 'string' && /^[A-Z0-9_]+$/.test(cause) ? cause : errorText(err, { max: 200 });
      throw new OutboundError('NETWORK_ERROR', `The request failed (${detail || 'unknown error'}).`);
    }
  }

  updateHttpClientConfig(): void {}
  httpHandlerConfigs(): Record<string, never> {
    return {};
  }
  destroy(): void {}
}

type Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

async function client(config: S3Config, target: S3Target, attempts: number) {
  const s3 = await loadSdk();
  const c = new s3.S3Client({
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: target.pathStyle,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    requestHandler: new GuardedHttpHandler(outboundPolicy(config)) as never,
    maxAttempts: attempts,
    // S3-compatible servers differ on the newer checksum headers; SHA-256 goes in the metadata
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { s3, c };
}

/** An SDK or network error as a failure with a code and a message fit to show an admin. */
export function s3Failure(err: unknown, target: S3Target): S3Failure {
  if (err instanceof S3Failure) return err;
  const host = (() => {
    try {
      return new URL(target.endpoint).host;
    } catch {
      return target.endpoint;
    }
  })();
  const guarded = innermostOutbound(err);
  if (guarded) {
    if (guarded.code === 'TARGET_NOT_ALLOWED') return new S3Failure('TARGET_NOT_ALLOWED', guarded.message);
    if (guarded.code === 'TIMEOUT') return new S3Failure('TIMEOUT', `${host} did not answer in time.`);
    return new S3Failure('UNREACHABLE', `${host} could not be reached: ${guarded.message}`);
  }
  const e = err as { name?: string; Code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = e.Code ?? e.name ?? '';
  // the SDK ends a call whose deadline passed with its own AbortError
  if (name === 'AbortError' || name === 'TimeoutError') return new S3Failure('TIMEOUT', `${host} did not answer in time.`);
  const status = e.$metadata?.httpStatusCode;
  if (name === 'NoSuchBucket') return new S3Failure('NO_SUCH_BUCKET', `The bucket "${target.bucket}" does not exist at ${host}.`);
  if (name === 'NoSuchKey' || (name === 'NotFound' && status === 404))
    return new S3Failure('NO_SUCH_KEY', 'The object does not exist.');
  if (name === 'InvalidAccessKeyId') return new S3Failure('ACCESS_DENIED', `${host} does not know the access key ID.`);
  if (name === 'SignatureDoesNotMatch')
    return new S3Failure('ACCESS_DENIED', 'The secret access key does not match the access key ID.');
  if (name === 'AccessDenied' || status === 403)
    return new S3Failure('ACCESS_DENIED', `Access denied: the access key may not use the bucket "${target.bucket}".`);
  const detail = errorText(err, { secrets: [target.secretAccessKey], max: 300 });
  return new S3Failure(
    'S3_ERROR',
    `${host} answered ${name || 'an error'}${status ? ` (HTTP ${status})` : ''}${detail && detail !== name ? `: ${detail}` : ''}`,
  );
}

async function run<T>(
  config: S3Config,
  target: S3Target,
  attempts: number,
  fn: (s3: Sdk, c: InstanceType<Sdk['S3Client']>) => Promise<T>,
): Promise<T> {
  const { s3, c } = await client(config, target, attempts);
  try {
    return await fn(s3, c);
  } catch (err) {
    throw s3Failure(err, target);
  } finally {
    c.destroy();
  }
}

export async function putObject(
  config: S3Config,
  target: S3Target,
  key: string,
  object: { bytes: Buffer; contentType: string; sha256: string },
): Promise<void> {
  await run(config, target, 3, (s3, c) =>
    c.send(
      new s3.PutObjectCommand({
        Bucket: target.bucket,
        Key: key,
        Body: object.bytes,
        ContentType: object.contentType,
        ContentLength: object.bytes.length,
        Metadata: { sha256: object.sha256 },
      }),
    ),
  );
}

/** An object's bytes as a stream (for downloads); null when the object is gone. */
export async function getObjectStream(config: S3Config, target: S3Target, bucket: string, key: string): Promise<Readable | null> {
  const { s3, c } = await client(config, target, 3);
  try {
    const out = await c.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = out.Body as Readable | undefined;
    if (!body) return Readable.from([]);
    // the client's pool is the shared guarded agent; destroying the client once the body is read
    body.once('close', () => c.destroy());
    return body;
  } catch (err) {
    c.destroy();
    const failure = s3Failure(err, { ...target, bucket });
    if (failure.code === 'NO_SUCH_KEY') return null;
    throw failure;
  }
}

/** An object's bytes, at most `maxBytes`; null when the object is gone. */
export async function getObjectBytes(
  config: S3Config,
  target: S3Target,
  bucket: string,
  key: string,
  maxBytes: number,
): Promise<Buffer | null> {
  const stream = await getObjectStream(config, target, bucket, key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes)
        throw new S3Failure('READ_BACK_MISMATCH', 'The stored object is larger than the file that was written.');
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    stream.destroy();
    throw s3Failure(err, { ...target, bucket });
  }
  return Buffer.concat(chunks);
}

/** Deletes an object; an object already gone is not an error. */
export async function deleteObject(config: S3Config, target: S3Target, bucket: string, key: string): Promise<void> {
  await run(config, target, 3, (s3, c) => c.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: key }))).catch(
    (err: S3Failure) => {
      if (err.code !== 'NO_SUCH_KEY') throw err;
    },
  );
}

/** Most keys one DeleteObjects call takes (S3's own limit). */
export const DELETE_OBJECTS_MAX = 1000;

/**
 * Deletes many objects of one bucket, DELETE_OBJECTS_MAX a call: a redaction of thousands of
 * files costs a few requests, not one each. A key already gone is not an error; any other key
 * the bucket refuses fails the call, so the caller keeps its rows and tries again.
 */
export async function deleteObjects(config: S3Config, target: S3Target, bucket: string, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_OBJECTS_MAX) {
    const chunk = keys.slice(i, i + DELETE_OBJECTS_MAX);
    const answer = await run(config, target, 3, (s3, c) =>
      c.send(new s3.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } })),
    );
    const refused = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
    if (refused.length)
      throw new S3Failure(
        'S3_ERROR',
        `The bucket refused to delete ${refused.length} of ${chunk.length} objects (${refused[0]!.Code ?? 'no code'}: ${refused[0]!.Message ?? ''}).`,
      );
  }
}

const PROBE_DEADLINE_MS = 20_000;

/**
 * "Test connection": writes a small probe object, reads it back and deletes it, with one
 * attempt each so a failure answers at once. Says which step failed and why.
 */
export async function probe(
  config: S3Config,
  target: S3Target,
  prefix: string,
  deadlineMs = PROBE_DEADLINE_MS,
): Promise<StorageTestAnswer> {
  const key = `${prefix}connection-test-${crypto.randomBytes(8).toString('hex')}.txt`;
  const body = Buffer.from(`Switchboard storage connection test ${new Date().toISOString()}\n`);
  // the console gives up on a call after 30 s: the whole test answers well before that
  const abortSignal = AbortSignal.timeout(deadlineMs);
  let step: 'write' | 'read' | 'delete' = 'write';
  try {
    await run(config, target, 1, (s3, c) =>
      c.send(
        new s3.PutObjectCommand({
          Bucket: target.bucket,
          Key: key,
          Body: body,
          ContentType: 'text/plain',
          ContentLength: body.length,
        }),
        { abortSignal },
      ),
    );
    step = 'read';
    const back = await run(config, target, 1, async (s3, c) => {
      const out = await c.send(new s3.GetObjectCommand({ Bucket: target.bucket, Key: key }), { abortSignal });
      return Buffer.from((await out.Body?.transformToByteArray()) ?? []);
    });
    if (!back.equals(body))
      throw new S3Failure('READ_BACK_MISMATCH', 'The probe object read back differs from what was written.');
    step = 'delete';
    await run(config, target, 1, (s3, c) =>
      c.send(new s3.DeleteObjectCommand({ Bucket: target.bucket, Key: key }), { abortSignal }),
    );
  } catch (err) {
    const failure = s3Failure(err, target);
    if (failure.code === 'TARGET_NOT_ALLOWED') throw failure;
    const code = failure.code === 'NO_SUCH_KEY' ? 'S3_ERROR' : failure.code;
    return {
      ok: false,
      code,
      step,
      message: `Could not ${step === 'write' ? 'write' : step === 'read' ? 'read back' : 'delete'} a test object: ${failure.message}`,
    };
  }
  return { ok: true, message: `Connected: a test object was written to "${target.bucket}", read back and deleted.` };
}
