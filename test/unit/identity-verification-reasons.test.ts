import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOf, readMrz, runChecks, type CheckInput } from '../../api/apps/identity-verification/checks';
import { IDV_CHECK_REASONS, IDV_STATUS_TONES } from '../../api/contract/apps/identity-verification';

// What a reviewer reads: every check's reason as one plain sentence (the codes stay in the API for
// programs), and status badges whose colour says what the status means.

const today = new Date('2026-11-23T12:00:00Z');
const VALID = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F3404159<<<<<<<<<<<<<<04'];
const EXPIRED = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

describe('check reasons read as sentences', () => {
  it('every reason code the checks can give has its sentence in the one table', () => {
    // the codes as written in checks.ts, so that a new code without a sentence fails here
    const source = readFileSync(resolve('api/apps/identity-verification/checks.ts'), 'utf8');
    const written = [...source.matchAll(/'([a-z]+(?:_[a-z]+)+|old_enough)'/g)]
      .map((m) => m[1]!)
      .filter((c) => !/^(not_run|minimum_age|date_of_birth|document_number|face_match)$/.test(c));
    expect(written.length).toBeGreaterThan(15);
    expect(written.filter((c) => !IDV_CHECK_REASONS[c])).toEqual([]);
  });

  it('each check run on real inputs answers a sentence, never its code', () => {
    const inputs: CheckInput[] = [
      { reading: null, expectedName: null, expectedDateOfBirth: null, minimumAge: 18, today, seenElsewhere: false },
      {
        reading: readMrz(VALID, today),
        expectedName: 'Anna Maria Eriksson',
        expectedDateOfBirth: '1974-08-12',
        minimumAge: 18,
        today,
        seenElsewhere: false,
      },
      {
        reading: readMrz(EXPIRED, today),
        expectedName: 'Someone Else',
        expectedDateOfBirth: '1980-01-01',
        minimumAge: 90,
        today,
        seenElsewhere: true,
      },
      {
        reading: readMrz(['NOT AN MRZ', 'AT ALL'], today),
        expectedName: null,
        expectedDateOfBirth: null,
        minimumAge: 18,
        today,
        seenElsewhere: false,
      },
    ];
    for (const input of inputs) {
      for (const r of runChecks(input)) {
        const shown = checkOf(r.key, r.status, r.reason);
        expect(shown.message, r.reason).not.toBe(r.reason);
        expect(shown.message).not.toMatch(/_/);
      }
    }
  });
});

describe('verification status badges by meaning', () => {
  it('Submitted waits for a reviewer (attention), only Approved is green and Declined is red', () => {
    expect(IDV_STATUS_TONES.submitted).toBe('info');
    expect(IDV_STATUS_TONES.approved).toBe('success');
    expect(IDV_STATUS_TONES.declined).toBe('danger');
    expect(
      Object.entries(IDV_STATUS_TONES)
        .filter(([, tone]) => tone === 'success')
        .map(([s]) => s),
    ).toEqual(['approved']);
  });
});
