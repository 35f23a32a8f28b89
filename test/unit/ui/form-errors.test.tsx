import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/client';
import { Button } from '../../../src/ui/Button';
import { TextField } from '../../../src/ui/Field';
import { FormError, useFormErrors } from '../../../src/ui/form';
import { makeBootstrap, renderSignedIn } from '../helpers';

// The one mechanism every console form reports refused fields with (src/ui/form.tsx): the
// message on its field, wired for assistive tech; focus on the first invalid field; the submit
// button keeping its label.

function Sample({ answer }: { answer?: () => Promise<void> }) {
  const form = useFormErrors();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setFailure(null);
    const found: Record<string, string> = {};
    if (!name) found.name = 'Name is required';
    if (!email.includes('@')) found.email = 'Please provide a valid email address';
    if (Object.keys(found).length) throw form.invalid(found);
    form.clear();
    try {
      await answer?.();
    } catch (error) {
      const invalid = form.fromAnswer(error);
      if (invalid) throw invalid;
      setFailure('The server is not answering.');
      throw error;
    }
  };
  return (
    <form ref={form.ref} noValidate aria-label="Sample" onSubmit={(e) => e.preventDefault()}>
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={form.errors.name} />
      <TextField label="Email" value={email} onChange={(e) => setEmail(e.target.value)} error={form.errors.email} />
      <FormError message={failure ?? form.errors._} />
      <Button type="submit" onClick={save} failureLabel="Not saved">
        Save
      </Button>
    </form>
  );
}

const save = () => screen.getByRole('button', { name: 'Save' });

describe('form errors', () => {
  it('puts each message on its field (aria-invalid, aria-describedby) and the label stays', async () => {
    render(<Sample />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.click(save());
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Please provide a valid email address',
    );
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(save().getAttribute('data-phase')).toBe('idle'));
    expect(save().textContent).toBe('Save');
  });

  it('moves focus to the first invalid field in the order of the form', async () => {
    render(<Sample />);
    save().focus();
    fireEvent.click(save());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.click(save());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
  });

  it("puts a 400 answer's field messages on the fields the same way", async () => {
    render(
      <Sample answer={() => Promise.reject(new ApiError(400, 'VALIDATION_FAILED', 'Invalid', { name: 'That name is taken' }))} />,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(save());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    expect(screen.getByText('That name is taken')).toBeTruthy();
    await waitFor(() => expect(save().getAttribute('data-phase')).toBe('idle'));
  });

  it("a failure that is no field's still flashes on the button and is said once under the form", async () => {
    render(<Sample answer={() => Promise.reject(new ApiError(503, 'UNAVAILABLE', 'Down'))} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(save());
    await screen.findByRole('button', { name: /Not saved/ });
    expect(screen.getByRole('alert').textContent).toBe('The server is not answering.');
  });

  it("with no field to name, focus goes to the form's own message", async () => {
    function Whole() {
      const form = useFormErrors();
      return (
        <form ref={form.ref}>
          <FormError message={form.errors._} />
          <button type="button" onClick={() => form.invalid({ _: 'Nothing to send yet' })}>
            Go
          </button>
        </form>
      );
    }
    render(<Whole />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Go' })));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });
});

describe('form errors on a console screen', () => {
  it('Add an Administrator: an empty e-mail is required, said on the field, with focus there and Add keeping its label', async () => {
    renderSignedIn('/settings/admin-management', makeBootstrap(), {
      'GET /api/admins': { body: { admins: [], invitations: [] } },
      'GET /api/invitations': { body: [] },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Add an Administrator/i }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    const email = within(dialog).getByLabelText(/Email/);
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe('E-mail address is required');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Add' }).getAttribute('data-phase')).toBe('idle'));
    fireEvent.change(email, { target: { value: 'not an address' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findByText('Please provide a valid email address');
  });
});
