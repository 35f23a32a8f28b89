import type { Context } from 'hono';
import type { AppEnv } from '../../auth/context';
import { ApiError } from '../../http/errors';
import type { TaskKey } from './registry';

// What the apps' routes read from a request the same way: ids in the path, where it came from,
// and the keyset paging key.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidParam(c: Context<AppEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!UUID.test(value)) throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  return value;
}

export function requestOrigin(c: Context<AppEnv>): { ip: string | null; userAgent: string | null } {
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return { ip: forwarded || env?.incoming?.socket?.remoteAddress || null, userAgent: c.req.header('user-agent') ?? null };
}

export function parseKey(key: string | undefined): TaskKey | null {
  if (!key) return null;
  const at = key.lastIndexOf('_');
  const ts = key.slice(0, at);
  const id = key.slice(at + 1);
  // the contract's pattern admits 0000-00-00 and ids like ---…: only a real instant and id reach
  // the database (checked here, not in the contract, to keep it out of the console's entry)
  const time = Date.parse(`${ts.slice(0, 23)}Z`);
  if (
    !UUID.test(id) ||
    Number.isNaN(time) ||
    ts.startsWith('0000') ||
    new Date(time).toISOString().slice(0, 19) !== ts.slice(0, 19)
  ) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'lastKey: lastKey is not a key this API gave out', {
      lastKey: 'lastKey is not a key this API gave out',
    });
  }
  return { ts, id };
}
