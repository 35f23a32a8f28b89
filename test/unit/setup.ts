import { afterAll, afterEach, vi } from 'vitest';
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

// A worker's files share one module graph (vitest.config.ts), but each file's environment is torn
// down when it ends: a lazy page a test started loading and did not wait for would then fail to
// load, and React.lazy would keep that failure for the next file (which showed "Cannot load
// '/src/ui/Card.tsx' ... after the environment was torn down" on its crash screen). Every file
// ends with the imports it started finished.
afterAll(async () => {
  await vi.dynamicImportSettled();
});
