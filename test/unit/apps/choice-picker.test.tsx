import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EFORM_ACTIONS } from '../../../api/contract/apps/e-form';
import { PAYMENT_ACTIONS } from '../../../api/contract/apps/payments';
import type { ActionChoice, ActionChoicesAnswer, ActionResult, AgentAppsAnswer } from '../../../api/contract/platform';
import { UnauthorizedCard } from '../../../hosts/UnauthorizedCard';
import { makeToken, mockApi } from '../helpers';

// The picker of "Send to a customer" (src/pages/apps/_frame/ChoicePicker.tsx) driven from the
// keyboard as an agent on a call would: type to filter, arrows to move, Enter to choose, Escape
// to close; the chosen id is what the action sends. Rendered in the Agent Preview, the same
// runner the console's dashboards use.

const FORM_A = '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11';
const FORM_B = '5d1c2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const FORM_C = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const forms: ActionChoice[] = [
  { id: FORM_A, title: 'Home claim', version: 3, editedAt: day(2) },
  { id: FORM_B, title: 'Home claim', version: 1, editedAt: day(40) },
  { id: FORM_C, title: 'Address change', version: 2, editedAt: day(5) },
];
const PATH = '/api/e-form/actions/send/choices/form';

function formsApi(
  answer: (q: string) => ActionChoicesAnswer | { status: number; body: unknown } = (q) => ({
    choices: forms.filter((f) => f.title.toLowerCase().includes(q.toLowerCase())),
    more: false,
  }),
) {
  const sent: ActionResult = {
    taskId: FORM_A,
    status: 'sent',
    message: 'Form "Home claim" sent to +1 •••• •• 4567.',
    task: {},
    open: true,
  };
  const apps: AgentAppsAnswer = {
    apps: [{ id: 'e-form', title: 'eForm', color: '#0891b2', actions: EFORM_ACTIONS }],
    timeZone: 'UTC',
  };
  return mockApi({
    'GET /api/agent/apps': { body: apps },
    [`GET ${PATH}`]: (request) => {
      const a = answer(new URL(request.url).searchParams.get('q') ?? '');
      return 'choices' in a ? { body: a } : a;
    },
    'POST /api/e-form/actions/send': { status: 201, body: sent },
  });
}

async function openForm() {
  render(<UnauthorizedCard agentToken={makeToken({ role: 'supervisor' })} />);
  fireEvent.click(await screen.findByRole('button', { name: 'eForm' }));
  const form = await screen.findByRole('form', { name: 'Send a form' });
  return { form, box: within(form).getByRole('combobox', { name: /Form/ }) as HTMLInputElement };
}

// the picker's own options (the caller's language is a select with options too)
const options = (name = 'Form') => within(screen.getByRole('listbox', { name, hidden: true })).queryAllByRole('option');
const activeOption = (box: HTMLElement) => {
  const id = box.getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('The picker of Send to a customer', () => {
  it('is a combobox that opens its listbox with the arrow key and lists each choice with its version and date', async () => {
    formsApi();
    const { box } = await openForm();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(options()).toHaveLength(3));
    const listbox = screen.getByRole('listbox', { name: 'Form' });
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    // the first is highlighted: Down opened the list on it
    expect(activeOption(box)?.getAttribute('aria-label')).toMatch(/^Home claim, Version 3 · published 2 days ago, id 0b6f0f7e$/);
    // two forms called "Home claim" are told apart by version, date and id
    expect(options()[1]!.textContent).toContain('Version 1');
    expect(options()[1]!.textContent).toContain('id 5d1c2e3f');
    expect(options()[2]!.textContent).not.toContain('id ');
  });

  it('moves with the arrows (wrapping), chooses with Enter and sends the chosen id, not the title', async () => {
    const { calls } = formsApi();
    const { form, box } = await openForm();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(activeOption(box)?.id).toBe(options()[1]!.id);
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(activeOption(box)?.id).toBe(options()[2]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    // Enter takes the highlighted choice and does not send the form
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Home claim');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(
      within(form).getByText(
        'Version 1 · published ' +
          new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(forms[1]!.editedAt!)),
      ),
    ).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send a form' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body)).toEqual({
      input: { form: FORM_B, phoneNumber: '+15551234567' },
    });
  });

  it('filters as one types, highlights the first match, and Enter takes it', async () => {
    const { calls } = formsApi();
    const { box } = await openForm();
    fireEvent.change(box, { target: { value: 'addr' } });
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual([expect.stringContaining('Address change')]));
    expect(calls.some((c) => c.path === PATH && new URL(c.url).searchParams.get('q') === 'addr')).toBe(true);
    await waitFor(() => expect(activeOption(box)?.textContent).toContain('Address change'));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Address change');
  });

  it('Escape closes the list and keeps the text; a second Escape empties the box and the choice', async () => {
    const { calls } = formsApi();
    const { form, box } = await openForm();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Home claim');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.value).toBe('Home claim');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('');
    // nothing chosen any more: the form asks for one before sending anything
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send a form' }));
    await within(form).findByText('Choose a form from the list');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('typing over a chosen title drops the choice: a title alone is never sent', async () => {
    const { calls } = formsApi();
    const { form, box } = await openForm();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.change(box, { target: { value: 'Home clai' } });
    fireEvent.keyDown(box, { key: 'Escape' });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send a form' }));
    await within(form).findByText('Choose a form from the list');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says when nothing matches, when nothing is published yet, and what the server answered', async () => {
    let published = true;
    formsApi((q) =>
      published
        ? { choices: forms.filter((f) => f.title.toLowerCase().includes(q.toLowerCase())), more: false }
        : { choices: [], more: false },
    );
    const { form, box } = await openForm();
    fireEvent.change(box, { target: { value: 'zzz' } });
    await within(form).findByText('Nothing matches "zzz".', { selector: '.picker-message' });
    published = false;
    fireEvent.change(box, { target: { value: '' } });
    await within(form).findByText('No form is published yet: an admin publishes one under Forms.', {
      selector: '.picker-message',
    });
  });

  it('shows the refusal of the list (Stripe not connected) in the picker', async () => {
    const apps: AgentAppsAnswer = {
      apps: [{ id: 'payments', title: 'Payments', color: '#635bff', actions: PAYMENT_ACTIONS }],
      timeZone: 'UTC',
    };
    mockApi({
      'GET /api/agent/apps': { body: apps },
      'GET /api/payments/actions/request/choices/productId': {
        status: 409,
        body: { code: 'STRIPE_NOT_CONNECTED', message: 'Connect your Stripe account first.' },
      },
    });
    render(<UnauthorizedCard agentToken={makeToken({ role: 'supervisor' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Payments' }));
    const form = await screen.findByRole('form', { name: 'Request a payment' });
    fireEvent.keyDown(within(form).getByRole('combobox', { name: 'Product' }), { key: 'ArrowDown' });
    expect(
      (await within(form).findByText('Connect your Stripe account first.', { selector: '.picker-message' })).className,
    ).toContain('picker-error');
  });

  it('lists products with their price, and says to type to narrow when there are more', async () => {
    const apps: AgentAppsAnswer = {
      apps: [{ id: 'payments', title: 'Payments', color: '#635bff', actions: PAYMENT_ACTIONS }],
      timeZone: 'UTC',
    };
    mockApi({
      'GET /api/agent/apps': { body: apps },
      'GET /api/payments/actions/request/choices/productId': {
        body: {
          choices: [
            {
              id: 'prod_1',
              title: 'Boiler service',
              detail: 'Annual check',
              price: { amount: 4900, currency: 'usd' },
              editedAt: day(1),
            },
          ],
          more: true,
        },
      },
    });
    render(<UnauthorizedCard agentToken={makeToken({ role: 'supervisor' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Payments' }));
    const form = await screen.findByRole('form', { name: 'Request a payment' });
    fireEvent.keyDown(within(form).getByRole('combobox', { name: 'Product' }), { key: 'ArrowDown' });
    await waitFor(() => expect(options('Product')).toHaveLength(1));
    const option = options('Product')[0]!;
    expect(option.getAttribute('aria-label')).toBe('Boiler service, $49.00 · changed yesterday, Annual check');
    expect(within(form).getByText('Showing the newest 1: type to narrow.')).toBeTruthy();
  });
});
