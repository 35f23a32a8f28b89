import crypto from 'node:crypto';
import * as v from 'valibot';
import type { ZoomConfig } from '../config';
import { ApiError } from '../http/errors';
import { HOST_ERRORS } from '../contract/hosts';
import { EmailSchema } from '../contract/common';

// Zoom Apps sign-in: the SDK's getAppContext() gives the page an encrypted blob only Zoom and the
// app's owner (who knows the client secret) can make. Decrypting it proves who the Zoom user is;
// Zoom's REST API then tells us that user's e-mail, which the context does not carry.

export const ZOOM_ISSUER = 'marketplace.zoom.us';

const ZoomContextSchema = v.object({
  typ: v.optional(v.string()),
  uid: v.optional(v.string()),
  mid: v.optional(v.string()),
  ts: v.optional(v.number()),
  /** milliseconds since the epoch */
  exp: v.number(),
  iss: v.string(),
  aud: v.string(),
});
export type ZoomContext = v.InferOutput<typeof ZoomContextSchema>;

const invalid = () =>
  new ApiError(
    401,
    HOST_ERRORS.ZOOM_CONTEXT_INVALID,
    'The Zoom app context could not be verified. Please reopen the app in Zoom.',
  );

/**
 * The wire format: base64 of [iv length: u8][iv][aad length: u16 LE][aad][cipher length: u32 LE]
 * [cipher][tag: 16 bytes], AES-256-GCM under SHA-256(client secret). Every length is checked
 * against what is left, so a truncated or padded blob is refused, never read past its end.
 */
export function unpackZoomContext(context: string): { iv: Buffer; aad: Buffer; cipherText: Buffer; tag: Buffer } {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(context)) throw invalid();
  const buf = Buffer.from(context, 'base64');
  let at = 0;
  const take = (n: number) => {
    if (n < 0 || at + n > buf.length) throw invalid();
    const part = buf.subarray(at, at + n);
    at += n;
    return part;
  };
  const ivLength = take(1).readUInt8(0);
  if (ivLength < 12) throw invalid();
  const iv = take(ivLength);
  const aad = take(take(2).readUInt16LE(0));
  const cipherText = take(take(4).readUInt32LE(0));
  const tag = take(16);
  if (at !== buf.length) throw invalid();
  return { iv, aad, cipherText, tag };
}

export function decryptZoomContext(context: string, clientSecret: string): unknown {
  const { iv, aad, cipherText, tag } = unpackZoomContext(context);
  const key = crypto.createHash('sha256').update(clientSecret).digest();
  let plain: string;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
    if (aad.length) decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(cipherText), decipher.final()]).toString('utf8');
  } catch {
    throw invalid();
  }
  try {
    return JSON.parse(plain);
  } catch {
    throw invalid();
  }
}

/** Decrypts and checks the context: issued by Zoom's marketplace, for our app, not expired. */
export function verifyZoomContext(
  context: string,
  config: Pick<ZoomConfig, 'clientId' | 'clientSecret'>,
  now: Date,
): ZoomContext & { uid: string } {
  const parsed = v.safeParse(ZoomContextSchema, decryptZoomContext(context, config.clientSecret));
  if (!parsed.success) throw invalid();
  const ctx = parsed.output;
  if (ctx.iss !== ZOOM_ISSUER || ctx.aud !== config.clientId) throw invalid();
  if (ctx.exp <= now.getTime())
    throw new ApiError(401, HOST_ERRORS.ZOOM_CONTEXT_EXPIRED, 'The Zoom app context has expired. Please reopen the app in Zoom.');
  if (!ctx.uid) throw new ApiError(403, HOST_ERRORS.ZOOM_GUEST, 'Please sign in to Zoom to use Switchboard.');
  return { ...ctx, uid: ctx.uid };
}

const ZoomUserSchema = v.object({
  id: v.string(),
  email: EmailSchema,
  first_name: v.optional(v.string()),
  last_name: v.optional(v.string()),
  /** 1 when the user has confirmed the e-mail address */
  verified: v.optional(v.number()),
  status: v.optional(v.string()),
});
export type ZoomUser = v.InferOutput<typeof ZoomUserSchema>;

const TokenSchema = v.object({ access_token: v.string(), expires_in: v.optional(v.number(), 3600) });

const unavailable = (why: string) =>
  new ApiError(502, HOST_ERRORS.ZOOM_UNAVAILABLE, `Zoom could not be reached to confirm who you are (${why}). Please try again.`);

const TIMEOUT_MS = 8000;
const MAX_BODY = 256 * 1024;

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.length > MAX_BODY) throw unavailable('answer too large');
  try {
    return JSON.parse(text);
  } catch {
    throw unavailable('unreadable answer');
  }
}

/**
 * Zoom REST API client authenticated with a server-to-server OAuth app (account credentials
 * grant). The access token lasts an hour; it is kept until a minute before it ends, and dropped
 * at once if Zoom refuses it.
 */
export class ZoomApi {
  private cached: { token: string; until: number } | null = null;

  constructor(private readonly config: ZoomConfig) {}

  private async accessToken(nowMs: number): Promise<string> {
    if (this.cached && this.cached.until > nowMs) return this.cached.token;
    const url = new URL(this.config.oauthUrl);
    url.searchParams.set('grant_type', 'account_credentials');
    url.searchParams.set('account_id', this.config.accountId);
    const basic = Buffer.from(`${this.config.apiClientId}:${this.config.apiClientSecret}`).toString('base64');
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw unavailable('no answer from the OAuth endpoint');
    }
    if (!res.ok) throw unavailable(`OAuth token request answered ${res.status}`);
    const parsed = v.safeParse(TokenSchema, await readJson(res));
    if (!parsed.success) throw unavailable('unexpected OAuth answer');
    this.cached = { token: parsed.output.access_token, until: nowMs + Math.max(0, parsed.output.expires_in - 60) * 1000 };
    return parsed.output.access_token;
  }

  /** GET /users/{uid}: the user's profile, e-mail included. */
  async user(uid: string, now: Date): Promise<ZoomUser> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.accessToken(now.getTime());
      let res: Response;
      try {
        res = await fetch(`${this.config.apiUrl}/users/${encodeURIComponent(uid)}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        throw unavailable('no answer from the users API');
      }
      if (res.status === 401 && attempt === 0) {
        this.cached = null;
        continue;
      }
      if (res.status === 404)
        throw new ApiError(
          403,
          HOST_ERRORS.ZOOM_USER_UNVERIFIED,
          'Zoom does not share your profile with Switchboard. Please ask your Zoom administrator.',
        );
      if (!res.ok) throw unavailable(`users API answered ${res.status}`);
      const parsed = v.safeParse(ZoomUserSchema, await readJson(res));
      if (!parsed.success) throw unavailable('unexpected users API answer');
      return parsed.output;
    }
    throw unavailable('the access token was refused');
  }
}

/** Zoom REST clients by configuration, so the access token is shared between requests. */
const clients = new WeakMap<ZoomConfig, ZoomApi>();
export function zoomApiFor(config: ZoomConfig): ZoomApi {
  let client = clients.get(config);
  if (!client) clients.set(config, (client = new ZoomApi(config)));
  return client;
}
