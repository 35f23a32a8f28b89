import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { here, renderSignedIn } from './helpers';

vi.mock('../../src/pages/resources', () => ({
  default: () => {
    throw new Error('Cannot read the resources list');
  },
}));

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
});
