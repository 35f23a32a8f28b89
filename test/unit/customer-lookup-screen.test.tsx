import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBootstrap, renderSignedIn } from './helpers';

const SAVED = {
  settings: {
    url: 'https://crm.acme.test/customers',
    method: 'GET',
    headerKeys: [],
    customerPath: 'data',
    customerId: 'id',
    titleTemplate: '{name}',
    descriptionTemplate: '{email}',
  },
};

function clearEveryField() {
  for (const label of [/^URL/, /^Customers array path/, /^Customer ID path/, /^Title template/, /^Description template/]) {
    fireEvent.change(screen.getByLabelText(label), { target: { value: '' } });
  }
}

describe('customer lookup screen', () => {
  it('asks before saving empty fields removes the settings, and then says they were removed', async () => {
    const { calls } = renderSignedIn('/settings/customer-lookup', makeBootstrap(), {
      'GET /api/customer-lookup': { body: SAVED },
      'DELETE /api/customer-lookup': { body: { settings: null } },
    });
    await screen.findByDisplayValue('https://crm.acme.test/customers');
    clearEveryField();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the customer lookup settings?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(screen.queryByText('Saved')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove settings' }));
    expect(await screen.findByText('Customer lookup settings have been removed')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('cancelling the empty save keeps the settings', async () => {
    const { calls } = renderSignedIn('/settings/customer-lookup', makeBootstrap(), {
      'GET /api/customer-lookup': { body: SAVED },
    });
    await screen.findByDisplayValue('https://crm.acme.test/customers');
    clearEveryField();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' || c.method === 'POST')).toBe(false);
  });

  it('saving an empty form with nothing saved yet names the required fields instead of flashing Saved', async () => {
    renderSignedIn('/settings/customer-lookup', makeBootstrap(), { 'GET /api/customer-lookup': { body: { settings: null } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Customers array path is required')).toBeTruthy();
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('removal has its own button, behind a confirmation', async () => {
    renderSignedIn('/settings/customer-lookup', makeBootstrap(), { 'GET /api/customer-lookup': { body: SAVED } });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove settings' }));
    expect(await screen.findByRole('dialog', { name: 'Remove the customer lookup settings?' })).toBeTruthy();
  });

  it('with a query as the customers path, a value of a matching customer gives a path inside it, and one of another customer is refused', async () => {
    const sample = '{"data":{"customers":[{"id":"c-1","plan":"gold"},{"id":"c-2","plan":"silver"}]}}';
    renderSignedIn('/settings/customer-lookup', makeBootstrap(), {
      'GET /api/customer-lookup': { body: { settings: null } },
      'POST /api/customer-lookup/test': { body: { sample, missing: ['customerId', 'titleTemplate', 'descriptionTemplate'] } },
    });
    const path = await screen.findByRole('textbox', { name: /^Customers array path/ });
    fireEvent.change(path, { target: { value: 'data.customers.#(plan=="gold")#' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^URL/ }), { target: { value: 'https://crm.acme.test/customers' } });
    fireEvent.change(screen.getByLabelText(/^Phone number/), { target: { value: '+447700900123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run test' }));
    const tree = await screen.findByRole('region', { name: 'Sample answer' });
    expect((within(tree).getByRole('radio', { name: 'Customer ID path' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(tree).getByRole('button', { name: '"c-2"' }));
    expect(
      await within(tree).findByText('Choose a value inside one of the customers the customers array path finds.'),
    ).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /^Customer ID path/ }) as HTMLInputElement).value).toBe('');
    fireEvent.click(within(tree).getByRole('button', { name: '"c-1"' }));
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: /^Customer ID path/ }) as HTMLInputElement).value).toBe('id'),
    );
    expect((path as HTMLInputElement).value).toBe('data.customers.#(plan=="gold")#');
  });
});
