import { describe, expect, it } from 'vitest';
import { ApiError, createApi, dispositionFilename, isTemporary, isTransient, parseRetryAfter } from '../../src/api/client';
import { STATE_MESSAGES } from '../../api/contract/stripe-states';
import { mockApi } from './helpers';

const api = createApi({ getToken: () => 'tok' });

describe('API client', () => {
  it('sends the bearer token and the time-zone header', async () => {
    const { calls } = mockApi({ 'GET /api/things': { body: { ok: true } } });
    await api.get('things');
    expect(calls[0].headers.get('authorization')).toBe('Bearer tok');
    expect(calls[0].headers.get('x-time-zone')).toBeTruthy();
  });

  it('puts a GET payload in the query string', async () => {
    const { calls } = mockApi({ 'GET /api/results/customer': { body: [] } });
    await api.get('results/customer', { query: { customerRef: 'abc 1' } });
    expect(new URL(calls[0].url).searchParams.get('customerRef')).toBe('abc 1');
  });

  it('passes a 4xx body through with its status, code, message and fields', async () => {
    mockApi({
      'POST /api/invitations': {
        status: 400,
        body: { code: 'VALIDATION', message: 'Invalid input', fields: { email: 'Invalid email' } },
      },
    });
    const error = (await api.post('invitations', { email: 'x' }).catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message, error.fields]).toEqual([
      400,
      'VALIDATION',
      'Invalid input',
      { email: 'Invalid email' },
    ]);
  });

  it("keeps the answer's X-Request-Id on the error, for a 4xx and a 500 alike", async () => {
    mockApi({
      'POST /api/invitations': {
        status: 400,
        body: { code: 'VALIDATION', message: 'Invalid input', requestId: 'req-400-abcdef' },
        headers: { 'x-request-id': 'req-400-abcdef' },
      },
      'GET /api/things': {
        status: 500,
        body: { code: 'INTERNAL', message: 'boom', requestId: 'req-500-abcdef' },
        headers: { 'x-request-id': 'req-500-abcdef' },
      },
    });
    expect(((await api.post('invitations', {}).catch((e) => e)) as ApiError).requestId).toBe('req-400-abcdef');
    expect(((await api.get('things').catch((e) => e)) as ApiError).requestId).toBe('req-500-abcdef');
  });

  it('reports a status other than the expected one as unexpected', async () => {
    mockApi({ 'GET /api/things': { status: 204 } });
    const error = (await api.get('things').catch((e) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([204, 'UNEXPECTED_STATUS']);
    // SPEC §8's text verbatim, the guidance beside it
    expect(error.message).toBe('unexpected response status: 204. Please reload the page and try again.');
  });

  it("says SPEC §8's text when a creation answers 200 instead of 201", async () => {
    mockApi({ 'POST /api/invitations': { status: 200, body: { id: 'inv_1' } } });
    const error = (await api.post('invitations', { email: 'a@b.test' }, { expect: 201 }).catch((e) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([200, 'UNEXPECTED_STATUS']);
    expect(error.message.startsWith('unexpected response status: 200')).toBe(true);
  });

  it('says what the user can do when the server fails with a 500', async () => {
    mockApi({ 'GET /api/things': { status: 500, body: { code: 'INTERNAL', message: 'boom' } } });
    const error = (await api.get('things').catch((e) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([500, 'UNEXPECTED_STATUS']);
    expect(error.message).toBe(
      'unexpected response status: 500. Something went wrong on our side. Please try again; if it keeps happening, contact support.',
    );
  });

  it('says the service is unavailable for a 503', async () => {
    mockApi({ 'GET /api/things': { status: 503 } });
    await expect(api.get('things')).rejects.toThrow(
      'unexpected response status: 503. The service is temporarily unavailable. Please try again in a few minutes.',
    );
  });

  it('says a configuration state in its own words whatever its status, and never as temporary', async () => {
    mockApi({
      'GET /api/connect': {
        status: 503,
        body: { code: 'STRIPE_CONNECT_NOT_CONFIGURED', message: STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED },
      },
      'GET /api/subscribe': {
        status: 503,
        body: { code: 'BILLING_NOT_CONFIGURED', message: STATE_MESSAGES.BILLING_NOT_CONFIGURED },
      },
      'GET /api/products': { status: 409, body: { code: 'STRIPE_NOT_CONNECTED', message: STATE_MESSAGES.STRIPE_NOT_CONNECTED } },
    });
    for (const [path, code] of [
      ['connect', 'STRIPE_CONNECT_NOT_CONFIGURED'],
      ['subscribe', 'BILLING_NOT_CONFIGURED'],
      ['products', 'STRIPE_NOT_CONNECTED'],
    ] as const) {
      const error = (await api.get(path).catch((e) => e)) as ApiError;
      expect([error.code, error.message]).toEqual([code, STATE_MESSAGES[code]]);
      expect(error.message).not.toMatch(/temporarily/);
      expect(isTemporary(error)).toBe(false);
      expect(isTransient(error)).toBe(false);
    }
  });

  it('says the server cannot be reached when the network fails', async () => {
    const { fetchMock } = mockApi({});
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = (await api.get('things').catch((e) => e)) as ApiError;
    expect([error.code, error.message]).toEqual([
      'NETWORK_ERROR',
      "Can't reach the server. Please check your internet connection and try again.",
    ]);
  });

  it("keeps the server's Retry-After (seconds or an HTTP date) on the error", async () => {
    mockApi({
      'GET /api/busy': { status: 503, headers: { 'retry-after': '2' }, body: { code: 'DATABASE_UNAVAILABLE', message: 'x' } },
    });
    const error = (await api.get('busy').catch((e) => e)) as ApiError;
    expect(error.retryAfter).toBe(2);
    expect(parseRetryAfter('Wed, 25 Nov 2026 17:00:30 GMT', Date.parse('Wed, 25 Nov 2026 17:00:00 GMT'))).toBe(30);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('tells a temporary failure (no answer, 429, 502-504) from a definitive answer (other 4xx, 500)', () => {
    expect(isTemporary(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe(true);
    expect(isTemporary(new ApiError(0, 'TIMEOUT', 'x'))).toBe(true);
    for (const status of [429, 502, 503, 504]) expect(isTemporary(new ApiError(status, 'X', 'x'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 500, 501]) expect(isTemporary(new ApiError(status, 'X', 'x'))).toBe(false);
  });

  it("reads a download's name from Content-Disposition, the UTF-8 filename* first", () => {
    expect(dispositionFilename('attachment; filename="agreement (signed).pdf"')).toBe('agreement (signed).pdf');
    expect(
      dispositionFilename(
        `attachment; filename="??????? (signed).pdf"; filename*=UTF-8''${encodeURIComponent('Договор (signed).pdf')}`,
      ),
    ).toBe('Договор (signed).pdf');
    expect(dispositionFilename('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(dispositionFilename(null)).toBeNull();
  });

  it('expects 201 from a creating POST', async () => {
    mockApi({ 'POST /api/passkeys/billing/free-trial': { status: 200, body: {} } });
    await expect(api.create('passkeys/billing/free-trial')).rejects.toMatchObject({ status: 200, code: 'UNEXPECTED_STATUS' });
  });

  it('reports an expired token to the session', async () => {
    let expired = 0;
    mockApi({ 'GET /api/things': { status: 401, body: { code: 'JWT_EXPIRED', message: 'expired' } } });
    await createApi({ getToken: () => 'tok', onSessionExpired: () => expired++ })
      .get('things')
      .catch(() => undefined);
    expect(expired).toBe(1);
  });

  it('reports a session ended on the server (signed out elsewhere, archived) to the session', async () => {
    let ended = 0;
    mockApi({ 'GET /api/things': { status: 401, body: { code: 'SESSION_REVOKED', message: 'Your session has ended.' } } });
    await createApi({ getToken: () => 'tok', onSessionExpired: () => ended++ })
      .get('things')
      .catch(() => undefined);
    expect(ended).toBe(1);
  });
});
