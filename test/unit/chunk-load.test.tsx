import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadFailure } from '../../src/app/CrashBoundary';
import { renderSignedIn } from './helpers';

// the Resources page's code cannot be fetched: what Chromium throws when a lazy route's chunk fails
vi.mock('../../src/pages/resources', () => ({
  default: () => {
    throw new TypeError('Failed to fetch dynamically imported module: http://localhost:3000/chunks/resources-4KX2.js');
  },
}));

describe('a page whose code cannot be fetched', () => {
  it("shows Can't reach the server with Retry, not Something went wrong with the module's address", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSignedIn('/resources');
    expect(await screen.findByRole('heading', { name: "Can't reach the server" })).toBeTruthy();
    expect(screen.getByText('This page could not be loaded. Please check your internet connection and try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.queryByText(/chunks\//)).toBeNull();
  });

  it("knows each browser's wording of a failed dynamic import, and nothing else", () => {
    expect(isChunkLoadFailure(new TypeError('Failed to fetch dynamically imported module: https://x/chunks/a.js'))).toBe(true);
    expect(isChunkLoadFailure(new TypeError('error loading dynamically imported module: https://x/chunks/a.js'))).toBe(true);
    expect(isChunkLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadFailure(new Error('Cannot read the resources list'))).toBe(false);
  });
});
