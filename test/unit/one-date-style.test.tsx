import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { ListDate, TaskCell } from '../../src/pages/apps/_frame/task-cells';
import { requestState } from '../../src/pages/apps/document-signature/signatures';
import { setConsoleTimeZone } from '../../src/ui/format';
import { customerDate, customerTimestamp } from '../../api/customer-pages/dates';

// One date style per audience: the same moment reads the same on two console screens (an
// activity list's date and Document Signature's request sentence), in the account's zone; and the
// same on the customer's signing page and the sealed PDF's timeline.

const SIGNED = '2026-12-02T06:01:55Z';

describe('one date style per audience', () => {
  afterEach(() => {
    setConsoleTimeZone(null);
    cleanup();
  });

  it('an activity list and the Signatures screen show the same moment the same way, in the account’s zone', () => {
    setConsoleTimeZone('America/New_York');
    const { container } = render(
      <TaskCell
        column={{ key: 'endedAt', label: 'Ended', kind: 'date' }}
        row={{
          id: 'r1',
          status: 'completed',
          phoneNumber: null,
          customerRef: null,
          agent: null,
          createdAt: SIGNED,
          endedAt: SIGNED,
          values: {},
        }}
      />,
    );
    const listed = container.querySelector('time')!.getAttribute('title');
    expect(listed).toMatch(/^Dec 2, 2026, 1:01\sAM EST$/);
    expect(requestState({ status: 'completed', expiresAt: SIGNED, signedAt: SIGNED, completedAt: SIGNED })).toBe(
      `Signed ${listed}; the sealed PDF is ready.`,
    );
  });

  it('every list of the console (Submissions, Forms, Enrollments, Documents) shows a moment as an activity list does', () => {
    const recent = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const row = {
      id: 'r1',
      status: 'completed',
      phoneNumber: null,
      customerRef: null,
      agent: null,
      createdAt: recent,
      endedAt: recent,
      values: {},
    };
    const activity = render(<TaskCell column={{ key: 'endedAt', label: 'Ended', kind: 'date' }} row={row} />).container.innerHTML;
    cleanup();
    const list = render(<ListDate value={recent} />).container;
    expect(list.innerHTML).toBe(activity);
    expect(list.textContent).toBe('3 hours ago');
  });

  it('the signing page and the certificate name the same day for the caller, in the account’s zone', () => {
    // 03:00 UTC is still December 1 in Los Angeles: both say so
    const late = '2026-12-02T03:00:00Z';
    expect(customerDate(late, 'en', 'America/Los_Angeles')).toBe('December 1, 2026');
    expect(customerTimestamp(late, 'en', 'America/Los_Angeles').startsWith(customerDate(late, 'en', 'America/Los_Angeles'))).toBe(
      true,
    );
  });
});
