import { render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatUsage } from '../../api/contract/wording';
import { routeWords } from '../../src/app/title';
import { makeBootstrap, renderSignedIn } from './helpers';
import { PASSKEY_ACTIONS } from '../../api/contract/apps/passkeys';
import { OTP_ACTIONS } from '../../api/contract/apps/one-time-passcode';
import { EFORM_ACTIONS } from '../../api/contract/apps/e-form';
import { SIG_ACTIONS } from '../../api/contract/apps/document-signature';
import { PAYMENT_ACTIONS } from '../../api/contract/apps/payments';
import { IDV_ACTIONS } from '../../api/contract/apps/identity-verification';
import { DECISION_OUTCOMES } from '../../src/pages/apps/identity-verification/review';
import { Timeline } from '../../src/pages/apps/_frame/TaskFacts';

const card = (title: string) => screen.getByRole('heading', { name: new RegExp(`^${title}`) }).closest('li') as HTMLElement;

describe('one vocabulary and one number format', () => {
  it('names billing statuses on the home cards as Watch Tower does', async () => {
    renderSignedIn('/', makeBootstrap({ status: { payments: 'inactive', passkeys: 'subscription' } }));
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(within(card('Payments')).getByText('Inactive')).toBeTruthy();
    expect(within(card('Passkeys')).getByText('Subscribed')).toBeTruthy();
  });

  it('shows an amount against its limit with grouping and a slash', () => {
    expect(formatUsage(4210, 5000, 'en-US')).toBe('4,210 / 5,000');
  });

  it('writes SMS in capitals in page names', () => {
    expect(routeWords('sms-content')).toBe('SMS content');
  });
  it('a decision toast names its outcome ("Verification declined"), never "Decline: done"', () => {
    expect(DECISION_OUTCOMES).toEqual({
      approved: 'Verification approved',
      declined: 'Verification declined',
      resubmission_requested: 'New photos requested',
    });
  });

  it('the review keyboard hints name the keys of the buttons beside them: D declines, as the Decline button says', async () => {
    renderSignedIn(
      '/identity-verification/verifications?view=needs-review',
      makeBootstrap({ role: 'admin', apps: ['identity-verification'] }),
      { 'GET /api/identity-verification/queue': { body: { items: [], total: 0 } } },
    );
    const hints = await screen.findByText(/decline with a reason/);
    expect(hints.textContent).toContain('D decline with a reason');
    expect(hints.textContent).not.toMatch(/reject/i);
  });

  it('every agent action is described in whole sentences, none a bare "If …" clause', () => {
    for (const [app, actions] of Object.entries({
      PASSKEY_ACTIONS,
      OTP_ACTIONS,
      EFORM_ACTIONS,
      SIG_ACTIONS,
      PAYMENT_ACTIONS,
      IDV_ACTIONS,
    })) {
      for (const action of actions) {
        for (const sentence of action.description.split(/(?<=\.)\s+/)) {
          expect(sentence, `${app} ${action.key}`).toMatch(/^[A-Z].*[.:!?]$/);
          expect(sentence, `${app} ${action.key}`).not.toMatch(/^(If|When|Because|Unless)\b[^,:]*\.$/);
        }
      }
    }
  });

  it('a timeline says "By customer" where the customer acted, in every app', () => {
    render(
      <Timeline
        events={[{ time: new Date().toISOString(), description: 'The customer opened the payment link', actor: 'Customer' }]}
      />,
    );
    expect(screen.getByText(/^By /).textContent).toBe('By customer');
  });
  it("the README's quick start names the development SMS outbox and says identity verification is unreleased, for provider staff only", () => {
    const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Configuration'));
    expect(quickStart).toContain('/dev/sms-outbox');
    expect(quickStart).toMatch(/Identity verification is not released yet/);
    expect(quickStart).toMatch(/only provider staff/);
  });
});
