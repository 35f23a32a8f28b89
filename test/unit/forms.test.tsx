import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from './helpers';

describe('support ticket form', () => {
  it('requires a subject and a description', async () => {
    renderSignedIn('/support/ticket');
    fireEvent.click(await screen.findByRole('button', { name: 'Submit ticket' }));
    expect(screen.getByText('Subject is required')).toBeTruthy();
    expect(screen.getByText('Description is required')).toBeTruthy();
  });

  it('labels the high priority Critical Production Outage', async () => {
    renderSignedIn('/support/ticket');
    const priority = (await screen.findByLabelText(/Priority/)) as HTMLSelectElement;
    expect([...priority.options].map((o) => [o.value, o.text])).toEqual([
      ['low', 'Low'],
      ['medium', 'Medium'],
      ['high', 'Critical Production Outage'],
    ]);
  });

  it('says honestly that a valid ticket was not sent and where to e-mail it', async () => {
    renderSignedIn('/support/ticket');
    fireEvent.change(await screen.findByLabelText(/Subject/), { target: { value: 'Calls drop' } });
    fireEvent.change(screen.getByLabelText(/Description/), { target: { value: 'Since 9am' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit ticket' }));
    expect(screen.getByRole('status').textContent).toContain('Your ticket has not been sent.');
    expect(screen.getByRole('link', { name: 'support@switchboard.example' })).toBeTruthy();
  });
});

describe('sales form', () => {
  it('requires an interest and a contact method', async () => {
    renderSignedIn('/sales');
    fireEvent.click(await screen.findByRole('button', { name: 'Send request' }));
    expect(screen.getByText('Please choose what you are interested in')).toBeTruthy();
    expect(screen.getByText('Please choose how we should contact you')).toBeTruthy();
  });
});

describe('support page', () => {
  it('offers Live Chat, Create Ticket and the contact addresses', async () => {
    renderSignedIn('/support');
    expect(await screen.findByRole('button', { name: 'Live Chat' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create Ticket' }).getAttribute('href')).toBe('/support/ticket');
    expect(screen.getAllByRole('link', { name: 'sales@switchboard.example' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'support@switchboard.example' }).length).toBeGreaterThan(0);
  });
});
