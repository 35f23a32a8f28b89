import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from '../../src/ui/Toast';

// Pages are lazy modules that vitest compiles on first use; on a loaded 2-core machine that can
// take over the default 1 s, so the first find of a lazy page may wait longer.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  toast.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});
