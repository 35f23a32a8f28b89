import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { here, renderSignedIn } from './helpers';
import { ApiError } from '../../src/api/client';
import { Toaster, toast } from '../../src/ui/Toast';

const crash = vi.hoisted(() => ({ error: null as Error | null }));
vi.mock('../../src/pages/resources', () => ({
  default: () => {
    throw crash.error ?? new Error('Cannot read the resources list');
  },
}));

function failedCall(requestId: string): ApiError {
  const error = new ApiError(
    500,
    'UNEXPECTED_STATUS',
    'Something went wrong on our side (error 500). Please try again; if it keeps happening, contact support.',
  );
  error.requestId = requestId;
  return error;
}

describe('crash screen', () => {
  it('shows Something went wrong with the error message, Reload and Report error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSignedIn('/resources');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText('Cannot read the resources list')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Report error' }));
    expect(await screen.findByRole('heading', { name: 'Report an issue' })).toBeTruthy();
    expect(here()).toBe('/support/ticket');
  });

  it("a crash from a failed call shows the request's id, and Report error brings it into the ticket", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    crash.error = failedCall('req-7f3a9c21-0042');
    try {
      renderSignedIn('/resources');
      expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
      expect(screen.getByText('Reference: req-7f3a9c21-0042')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Report error' }));
      expect(await screen.findByRole('heading', { name: 'Report an issue' })).toBeTruthy();
      expect((screen.getByLabelText(/Description/) as HTMLTextAreaElement).value).toContain('Reference: req-7f3a9c21-0042');
    } finally {
      crash.error = null;
    }
  });
});

describe('error toasts', () => {
  it("show the failed request's id as a reference; other errors show none", () => {
    render(<Toaster />);
    act(() => {
      toast.error('Could not save', 'Please try again.', failedCall('req-00aa11bb22'));
      toast.error('Could not copy', 'Your browser did not allow it.', new Error('clipboard'));
    });
    expect(screen.getByText('Reference: req-00aa11bb22')).toBeTruthy();
    expect(screen.getAllByText(/^Reference:/)).toHaveLength(1);
    act(() => toast.clear());
  });
});
