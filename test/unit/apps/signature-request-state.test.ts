import { describe, expect, it } from 'vitest';
import { requestState } from '../../../src/pages/apps/document-signature/signatures';
import { formatDateTime } from '../../../src/ui/format';

const at = {
  expiresAt: '2026-12-02T06:01:55.000Z',
  signedAt: '2026-11-25T06:01:00.000Z',
  completedAt: '2026-11-25T06:01:20.000Z',
};

describe("a signature request's state line", () => {
  it('an open request says when its link expires', () => {
    expect(requestState({ ...at, status: 'sent', signedAt: null, completedAt: null })).toBe(
      `The link expires ${formatDateTime(at.expiresAt)}.`,
    );
    expect(requestState({ ...at, status: 'opened', signedAt: null, completedAt: null })).toContain('expires');
  });

  it('a signed or completed request says when it was signed and nothing about expiry', () => {
    for (const status of ['signed', 'completed'] as const) {
      const line = requestState({ ...at, status });
      expect(line).toContain(`Signed ${formatDateTime(at.signedAt)}`);
      expect(line).not.toMatch(/expire/i);
    }
  });

  it('declined and cancelled requests say so without an expiry; an expired one says it expired', () => {
    expect(requestState({ ...at, status: 'declined', signedAt: null, completedAt: null })).toBe('The customer declined to sign.');
    expect(requestState({ ...at, status: 'cancelled', signedAt: null, completedAt: null })).not.toMatch(/expire/i);
    expect(requestState({ ...at, status: 'expired', signedAt: null, completedAt: null })).toBe(
      `The link expired ${formatDateTime(at.expiresAt)} before it was signed.`,
    );
  });
});
