import crypto from 'node:crypto';

// Secrets that integrations need (tokens, client secrets, API keys) are stored encrypted with
// AES-256-GCM under a key derived from ENCRYPTION_KEY. The stored form is self-describing
// ("v1.<iv>.<tag>.<cipher>") so the key scheme can change later without guessing.

function key(secret: string): Buffer {
  return crypto.createHash('sha256').update(`switchboard:secrets:${secret}`).digest();
}

export function encryptSecret(plain: string, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key(secret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decryptSecret(stored: string, secret: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A random token with a visible kind prefix, e.g. sk_…; 32 bytes of entropy. */
export function generateKey(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}
