import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { toast } from '../../src/ui/Toast';

afterEach(() => {
  cleanup();
  localStorage.clear();
  toast.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});
