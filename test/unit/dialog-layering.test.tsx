import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from '../../src/ui/ConfirmDialog';
import { Dialog } from '../../src/ui/Dialog';

function ConfirmHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Archive Sam</button>
      <ConfirmDialog
        open={open}
        title="Archive Sam?"
        description="Sam loses access."
        confirmLabel="Archive"
        onConfirm={() => {}}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

describe('dialogs over the page', () => {
  it('a confirmation gives focus back to the button that opened it when cancelled', () => {
    render(<ConfirmHarness />);
    const opener = screen.getByRole('button', { name: 'Archive Sam' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('a dialog opened inside a spaced page section sits directly on <body>, out of reach of the page layout', () => {
    render(
      <div className="page">
        <p>Before</p>
        <Dialog open onClose={() => {}} title="Edit">
          <input aria-label="Name" />
        </Dialog>
      </div>,
    );
    const backdrop = screen.getByRole('dialog').parentElement!;
    expect(backdrop.className).toBe('dialog-backdrop');
    expect(backdrop.parentElement).toBe(document.body);
  });
});
