import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { IdvQueue } from '../../../api/contract/apps/identity-verification';
import { here, makeBootstrap, renderSignedIn } from '../helpers';

const item = (n: number): IdvQueue['items'][number] => ({
  id: `0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a${String(n).padStart(2, '0')}`,
  status: 'needs_review',
  customerRef: `CUST-${n}`,
  documentType: 'passport',
  submittedAt: '2026-11-20T10:00:00Z',
  failedChecks: 1,
  assignedTo: null,
  assignedToYou: false,
});

describe('Identity Verification review queue', () => {
  it('says when only the oldest cases are listed, and how many wait in all', async () => {
    const queue: IdvQueue = { items: [item(1), item(2)], total: 150 };
    renderSignedIn(
      '/identity-verification/verifications?view=needs-review',
      makeBootstrap({ role: 'admin', apps: ['identity-verification'] }),
      { 'GET /api/identity-verification/queue': { body: queue } },
    );
    expect((await screen.findByTestId('queue-more')).textContent).toBe(
      'The 2 oldest of 150 are listed; the rest appear here as these are decided.',
    );
    expect(screen.getByTestId('queue-count').textContent).toBe('150 cases waiting');
  });

  it('says nothing more when every waiting case is listed', async () => {
    renderSignedIn(
      '/identity-verification/verifications?view=needs-review',
      makeBootstrap({ role: 'admin', apps: ['identity-verification'] }),
      { 'GET /api/identity-verification/queue': { body: { items: [item(1)], total: 1 } satisfies IdvQueue } },
    );
    await screen.findByText('CUST-1');
    expect(screen.getByTestId('queue-count').textContent).toBe('1 case waiting');
    expect(screen.queryByTestId('queue-more')).toBeNull();
  });

  it('is the Needs review view of Verifications: the Verifications tab stays current', async () => {
    renderSignedIn(
      '/identity-verification/verifications?view=needs-review',
      makeBootstrap({ role: 'admin', apps: ['identity-verification'] }),
      { 'GET /api/identity-verification/queue': { body: { items: [item(1)], total: 1 } satisfies IdvQueue } },
    );
    await screen.findByText('CUST-1');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Verifications');
    const tabs = screen.getByRole('navigation', { name: 'Identity Verification sections' });
    expect(within(tabs).getByRole('link', { name: 'Verifications' }).getAttribute('aria-current')).toBe('page');
    const views = screen.getByRole('navigation', { name: 'Verification views' });
    expect(within(views).getByRole('link', { name: 'Needs review' }).getAttribute('aria-current')).toBe('page');
    expect(within(views).getByRole('link', { name: 'All verifications' }).getAttribute('aria-current')).toBeNull();
  });

  it('J opens the next waiting case in the same view, keeping the view in the address', async () => {
    renderSignedIn(
      '/identity-verification/verifications?view=needs-review',
      makeBootstrap({ role: 'admin', apps: ['identity-verification'] }),
      { 'GET /api/identity-verification/queue': { body: { items: [item(1), item(2)], total: 2 } satisfies IdvQueue } },
    );
    await screen.findByText('CUST-2');
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(here()).toBe(`/identity-verification/verifications?view=needs-review&session=${item(2).id}`);
  });
});
