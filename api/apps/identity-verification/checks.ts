import { parse } from 'mrz';
import {
  IDV_CHECK_REASONS,
  IDV_CHECKS,
  type IdvCheck,
  type IdvCheckKey,
  type IdvExtracted,
} from '../../contract/apps/identity-verification';

// The automatic checks, as pure functions of what is known: the MRZ lines the reviewer typed,
// the expected name and date of birth, today's date, the minimum age and whether the document
// number was seen in another session of the same account. Each answers passed, failed or not
// run with a reason code. Face match and liveness are never run: nothing here can do them.

export type CheckResult = { key: IdvCheckKey; status: 'passed' | 'failed' | 'not_run'; reason: string };

export type MrzReading = { extracted: IdvExtracted; checkDigitsValid: boolean; wrongDigits: string[] } | { error: string };

const field = (result: ReturnType<typeof parse>, name: string) => result.details.find((d) => d.field === name);

/**
 * MRZ dates are YYMMDD. A birth date is in the past: the century that puts it at or before
 * today. An expiry date is within 50 years around today.
 */
export function mrzDate(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', today: Date): string | null {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const mm = yymmdd.slice(2, 4);
  const dd = yymmdd.slice(4, 6);
  const thisYear = today.getUTCFullYear();
  let year = Math.floor(thisYear / 100) * 100 + yy;
  if (kind === 'birth') {
    const candidate = `${year}-${mm}-${dd}`;
    if (candidate > today.toISOString().slice(0, 10)) year -= 100;
  } else if (year > thisYear + 50) year -= 100;
  else if (year < thisYear - 50) year += 100;
  const iso = `${year}-${mm}-${dd}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : null;
}

/** The lines parsed by the `mrz` package; check digits read from its per-field verdicts. */
export function readMrz(lines: string[], today: Date): MrzReading {
  let result: ReturnType<typeof parse>;
  try {
    result = parse(lines);
  } catch (err) {
    return { error: err instanceof Error ? err.message : 'not a machine-readable zone' };
  }
  const digitFields = result.details.filter((d) => /CheckDigit$/.test(d.field ?? ''));
  const wrongDigits = digitFields.filter((d) => !d.valid).map((d) => d.label);
  const raw = (name: string) => {
    const f = field(result, name);
    const range = f?.ranges?.[0];
    // an unknown state code (UTO in the ICAO specimens) parses to null: keep what was printed
    const value = f?.value ?? (range ? lines[range.line]?.slice(range.start, range.end).replace(/</g, '') : null) ?? null;
    return value ? String(value) : null;
  };
  const fields = result.fields as Record<string, string | null | undefined>;
  return {
    checkDigitsValid: digitFields.length > 0 && wrongDigits.length === 0,
    wrongDigits,
    extracted: {
      format: String(result.format),
      documentCode: fields.documentCode ?? null,
      issuingState: raw('issuingState'),
      documentNumber: result.documentNumber ?? fields.documentNumber ?? null,
      lastName: fields.lastName ?? null,
      firstName: fields.firstName ?? null,
      nationality: raw('nationality'),
      dateOfBirth: mrzDate(fields.birthDate, 'birth', today),
      sex: fields.sex ?? null,
      expiryDate: mrzDate(fields.expirationDate, 'expiry', today),
      mrzLines: lines,
    },
  };
}

/** Letters only, uppercase, accents folded, in any order: "Anna-Maria Eriksson" ~ "ERIKSSON ANNA MARIA". */
export function nameTokens(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z]+/)
    .filter(Boolean)
    .sort();
}

export function ageOn(dateOfBirth: string, today: Date): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  return age;
}

export type CheckInput = {
  reading: MrzReading | null;
  expectedName: string | null;
  expectedDateOfBirth: string | null;
  minimumAge: number;
  today: Date;
  /** the document number was seen in another session of this account */
  seenElsewhere: boolean;
};

export function runChecks(input: CheckInput): CheckResult[] {
  const { reading, today } = input;
  const results: CheckResult[] = [];
  const add = (key: IdvCheckKey, status: CheckResult['status'], reason: string) => results.push({ key, status, reason });
  if (!reading) add('mrz', 'not_run', 'mrz_not_entered');
  else if ('error' in reading) add('mrz', 'failed', 'mrz_unreadable');
  else
    add(
      'mrz',
      reading.checkDigitsValid ? 'passed' : 'failed',
      reading.checkDigitsValid ? 'mrz_valid' : 'mrz_check_digit_mismatch',
    );
  const data = reading && !('error' in reading) ? reading.extracted : null;
  const notRun = (key: IdvCheckKey) => add(key, 'not_run', 'mrz_not_entered');
  if (!data) {
    for (const key of ['expiry', 'minimum_age', 'name', 'date_of_birth', 'document_number'] as const) notRun(key);
  } else {
    const todayIso = today.toISOString().slice(0, 10);
    if (!data.expiryDate) add('expiry', 'not_run', 'no_expiry_date');
    else
      add(
        'expiry',
        data.expiryDate >= todayIso ? 'passed' : 'failed',
        data.expiryDate >= todayIso ? 'not_expired' : 'document_expired',
      );
    if (!data.dateOfBirth) add('minimum_age', 'not_run', 'no_date_of_birth');
    else {
      const ok = ageOn(data.dateOfBirth, today) >= input.minimumAge;
      add('minimum_age', ok ? 'passed' : 'failed', ok ? 'old_enough' : 'under_minimum_age');
    }
    if (!input.expectedName) add('name', 'not_run', 'no_expected_name');
    else {
      const ok =
        nameTokens(input.expectedName).join(' ') === nameTokens(`${data.lastName ?? ''} ${data.firstName ?? ''}`).join(' ');
      add('name', ok ? 'passed' : 'failed', ok ? 'name_matches' : 'name_mismatch');
    }
    if (!input.expectedDateOfBirth) add('date_of_birth', 'not_run', 'no_expected_date_of_birth');
    else if (!data.dateOfBirth) add('date_of_birth', 'not_run', 'no_date_of_birth');
    else {
      const ok = data.dateOfBirth === input.expectedDateOfBirth;
      add('date_of_birth', ok ? 'passed' : 'failed', ok ? 'date_of_birth_matches' : 'date_of_birth_mismatch');
    }
    if (!data.documentNumber) add('document_number', 'not_run', 'no_document_number');
    else
      add(
        'document_number',
        input.seenElsewhere ? 'failed' : 'passed',
        input.seenElsewhere ? 'seen_in_other_session' : 'not_seen_before',
      );
  }
  add('face_match', 'not_run', 'not_available');
  add('liveness', 'not_run', 'not_available');
  return results;
}

/** A stored check as the API shows it. */
export function checkOf(key: string, status: CheckResult['status'], reason: string): IdvCheck {
  return {
    key,
    label: IDV_CHECKS.find((c) => c.key === key)?.label ?? key,
    status,
    reason,
    message: IDV_CHECK_REASONS[reason] ?? reason,
  };
}
