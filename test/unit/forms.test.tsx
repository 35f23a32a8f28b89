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
    // the header's live-updates indicator is a status region too: read the form's own
    expect(
      screen
        .getAllByRole('status')
        .map((el) => el.textContent)
        .join('\n'),
    ).toContain('Your ticket has not been sent.');
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

describe('contact sales form phone number', () => {
  async function fill(phone: string, method: 'Email' | 'Phone') {
    renderSignedIn('/sales');
    fireEvent.change(await screen.findByLabelText(/Interested in/), { target: { value: 'Passkeys' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Phone/ }), { target: { value: phone } });
    fireEvent.click(screen.getByRole('radio', { name: method }));
    fireEvent.click(screen.getByRole('button', { name: 'Send request' }));
  }

  it('refuses a phone number without its country code, saying so in plain words', async () => {
    await fill('abc', 'Email');
    expect(screen.getByText('Enter the number with its country code, e.g. +44 20 7946 0018')).toBeTruthy();
    expect(screen.queryByText(/has not been sent/)).toBeNull();
  });

  it('requires a phone number when the contact method is phone', async () => {
    await fill('', 'Phone');
    expect(screen.getByText('Phone number is required to be contacted by phone')).toBeTruthy();
    expect(screen.queryByText(/has not been sent/)).toBeNull();
  });

  it('accepts a spaced international number', async () => {
    await fill('+44 20 7946 0958', 'Phone');
    expect(
      screen
        .getAllByRole('status')
        .map((el) => el.textContent)
        .join('\n'),
    ).toContain('Your request has not been sent.');
  });
});
