import crypto from 'node:crypto';

// A software WebAuthn authenticator: ES256 keys from node:crypto, attestation "none",
// authenticator data with a real signature counter, and the knobs a test needs to misbehave
// (another origin, a counter that goes backwards, a broken signature). The API tests drive the
// ceremonies with it, and the demo seed makes its passkeys with it, so the demo's enrollments and
// verifications went through the same verification as a phone's. Never used to serve a customer.

type Json = Record<string, unknown>;

/** The smallest CBOR encoder that writes what WebAuthn needs: ints, bytes, text and maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (typeof value === 'string') {
    const b = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, b.length), b]);
  }
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  if (value && typeof value === 'object') return cbor(new Map(Object.entries(value)));
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest();

type Key = { privateKey: crypto.KeyObject; counter: number; userHandle: string | null; rpId: string };

export type SoftOptions = { aaguid?: string; backupEligible?: boolean; backedUp?: boolean; transports?: string[] };

export class SoftAuthenticator {
  readonly keys = new Map<string, Key>();
  constructor(private readonly options: SoftOptions = {}) {}

  private flags(extra: number): number {
    const be = this.options.backupEligible ? 0x08 : 0;
    const bs = this.options.backedUp ? 0x10 : 0;
    return 0x01 | 0x04 | be | bs | extra;
  }

  /** Answers navigator.credentials.create() for these options, as @simplewebauthn/browser would post it. */
  register(options: Json, origin: string): Json & { id: string } {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const credentialId = crypto.randomBytes(32);
    const id = b64u(credentialId);
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    const aaguid = Buffer.from((this.options.aaguid ?? '00000000-0000-0000-0000-000000000000').replaceAll('-', ''), 'hex');
    const counter = Buffer.alloc(4);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rp.id),
      Buffer.from([this.flags(0x40)]),
      counter,
      aaguid,
      idLength,
      credentialId,
      cose,
    ]);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    this.keys.set(id, { privateKey, counter: 0, userHandle: user.id, rpId: rp.id });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: this.options.transports ?? ['internal', 'hybrid'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * Answers navigator.credentials.get(): with the first allowed credential it holds, or the one
   * named. `counter` sets the counter it reports; `origin` is what the browser would put in
   * clientDataJSON; `tamper` breaks the signature.
   */
  authenticate(
    options: Json,
    origin: string,
    knobs: { credentialId?: string; counter?: number; tamper?: boolean } = {},
  ): Json & { id: string } {
    const allowed = ((options.allowCredentials as { id: string }[] | undefined) ?? []).map((c) => c.id);
    const id = knobs.credentialId ?? allowed.find((a) => this.keys.has(a));
    if (!id || !this.keys.has(id)) throw new Error('soft authenticator: no credential for these options');
    const key = this.keys.get(id)!;
    key.counter = knobs.counter ?? key.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(key.counter);
    const authData = Buffer.concat([sha256(options.rpId as string), Buffer.from([this.flags(0)]), counter]);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false });
    let signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key.privateKey);
    if (knobs.tamper) signature = crypto.sign('sha256', Buffer.from('something else'), key.privateKey);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: key.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
