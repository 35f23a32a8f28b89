import { describe, expect, it } from 'vitest';
import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

// A token signed with the real secret is still refused when its times are not ones the server
// could have given: iat far in the past (-1e308), ahead of the clock, or a lifetime longer than a
// session's.

async function tokenWith(t: TestContext, times: { iat: number; exp: number }): Promise<string> {
  const admin = t.account('acme').adminIds['owner@acme.test']!;
  const sessionId = (
    await t.db.tenant(t.account('acme').id, (trx) =>
      trx
        .insertInto('sessions')
        .values({
          account_id: t.account('acme').id,
          admin_id: admin,
          ghost: false,
          staff_id: null,
          expires_at: new Date(Date.now() + 3600_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    )
  ).id;
  return new SignJWT({
    sid: sessionId,
    sub: admin,
    acc: t.account('acme').id,
    role: 'owner',
    root: false,
    ghost: false,
    email: 'owner@acme.test',
    iat: times.iat,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('switchboard')
    .setAudience('switchboard-console')
    .setSubject(admin)
    .setExpirationTime(times.exp)
    .sign(createSecretKey(Buffer.from(t.config.sessionSecret, 'utf8')));
}

describe.each(DATABASE_KINDS)('token times are sane (%s)', (kind) => {
  const t = useTestContext(kind);
  const nowS = () => Math.floor(t.clock.now.getTime() / 1000);
  const status = async (token: string) => {
    const res = await t.call('GET', '/admins', { token });
    return { status: res.status, code: ((await res.json()) as { code?: string }).code };
  };

  it('a token of the right shape and times is accepted', async () => {
    expect((await status(await tokenWith(t, { iat: nowS(), exp: nowS() + 3600 }))).status).toBe(200);
  });

  it('an iat of -1e308 is refused 401 TOKEN_INVALID', async () => {
    expect(await status(await tokenWith(t, { iat: -1e308, exp: nowS() + 3600 }))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
  });

  it('an iat more than 60 s ahead of the clock is refused', async () => {
    expect(await status(await tokenWith(t, { iat: nowS() + 120, exp: nowS() + 3600 }))).toEqual({
      status: 401,
      code: 'TOKEN_INVALID',
    });
  });

  it('a lifetime longer than a session can last is refused', async () => {
    expect(await status(await tokenWith(t, { iat: nowS(), exp: nowS() + 200 * 3600 }))).toEqual({
      status: 401,
      code: 'TOKEN_INVALID',
    });
  });
});
