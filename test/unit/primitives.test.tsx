import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../../src/ui/ConfirmDialog';
import { Dialog } from '../../src/ui/Dialog';
import { TextField } from '../../src/ui/Field';
import { toast, Toaster } from '../../src/ui/Toast';

function DialogHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Edit name">
        <input aria-label="Name" />
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('is a modal dialog labelled by its title that focuses its first control', () => {
    render(<DialogHarness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit name' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
  });

  it('closes with Escape and gives focus back to what opened it', () => {
    render(<DialogHarness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('ConfirmDialog', () => {
  it('runs the destructive action only after confirmation', async () => {
    const onConfirm = vi.fn(async () => {});
    const onCancel = vi.fn();
    render(
      <ConfirmDialog
        open
        title="Revoke invitation?"
        description="They will no longer be able to join."
        confirmLabel="Revoke"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(onConfirm).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Revoke' })));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onCancel).toHaveBeenCalledOnce();
  });
});

describe('TextField', () => {
  it('ties its inline error to the input', () => {
    render(<TextField label="Email" error="Please provide a valid email address" />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe('Please provide a valid email address');
  });
});

describe('Toast', () => {
  it('announces a success toast with its title and description', () => {
    render(<Toaster />);
    act(() => {
      toast.success('Role updated successfully', 'Ann is now an admin');
    });
    expect(screen.getByText('Role updated successfully')).toBeTruthy();
    expect(screen.getByText('Ann is now an admin').closest('[aria-live="polite"]')).toBeTruthy();
  });

  it('announces an error toast assertively', () => {
    render(<Toaster />);
    act(() => {
      toast.error('Failed to update role', 'Please try again later');
    });
    expect(screen.getByRole('alert').textContent).toContain('Failed to update role');
  });

  it('dismisses a toast after five seconds', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast.success('Branding has been updated');
    });
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Branding has been updated')).toBeNull();
  });
});
