import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatUsage } from '../../api/contract/wording';
import { routeWords } from '../../src/app/title';
import { makeBootstrap, renderSignedIn } from './helpers';

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
});
