import { describe, expect, it } from 'vitest';
import { connectFailure, DatabaseUnreachable, isDatabaseBusy, isDatabaseUnavailable, isRetryableRead } from '../../api/db/faults';

// What each database error means for the caller (the answers are api/http/errors.ts's).
const pgError = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('database errors as the caller sees them', () => {
  it('a statement past statement_timeout, a lock wait past lock_timeout and no free connection slot are busy', () => {
    for (const code of ['57014', '55P03', '53300']) expect(isDatabaseBusy(pgError(code)), code).toBe(true);
    expect(isDatabaseBusy(pgError('23505'))).toBe(false);
  });

  it('a database shut down, refusing, unreachable or past the deadline is unavailable; a wrong query is not', () => {
    for (const err of [
      pgError('57P01'),
      pgError('57P03'),
      pgError('08006'),
      pgError('ECONNREFUSED'),
      new DatabaseUnreachable('stalled'),
      new Error('Connection terminated unexpectedly'),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
    }
    expect(isDatabaseUnavailable(pgError('42P01'))).toBe(false);
  });

  it('a prepared statement missing or already there is never shown as such: the connection is given up (503)', () => {
    expect(isDatabaseUnavailable(pgError('26000', 'prepared statement "sb9" does not exist'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('42P05', 'prepared statement "sb1" already exists'))).toBe(true);
  });

  it('a read runs again only when its connection went or its statement state was wrong', () => {
    expect(isRetryableRead(pgError('26000'))).toBe(true);
    expect(isRetryableRead(pgError('57P01'))).toBe(true);
    expect(isRetryableRead(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isRetryableRead(new DatabaseUnreachable('no answer within the deadline'))).toBe(false);
    expect(isRetryableRead(pgError('57014'))).toBe(false);
    expect(isRetryableRead(pgError('23505'))).toBe(false);
  });

  it('a refused connection stays busy when the database says too many connections, and is unreachable otherwise', () => {
    expect(isDatabaseBusy(connectFailure(pgError('53300', 'sorry, too many clients already')))).toBe(true);
    const refused = connectFailure(pgError('55000', 'database "sb" is not currently accepting connections'));
    expect(refused).toBeInstanceOf(DatabaseUnreachable);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });
});
