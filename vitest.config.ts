import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Four kinds of test, each a vitest project: `npm run test:unit` etc. pick one with --project
// (end-to-end tests are two projects: the parallel 'e2e' and the one-at-a-time 'e2e-serial').
const E2E_SERIAL = [
  'test/e2e/database-faults.test.ts',
  'test/e2e/database-pooler.test.ts',
  'test/e2e/jobs-across-processes.test.ts',
  'test/e2e/live-updates.test.ts',
  'test/e2e/metrics-workers.test.ts',
  'test/e2e/rolling-restart.test.ts',
  'test/e2e/workers.test.ts',
];
// Unit files that replace a module with vi.mock run in a fresh module graph each: without
// isolation a lazy page resolved under one file's mock stays cached for the next file (React.lazy
// keeps what it loaded), so the crash screen showed another file's chunk-load failure in CI.
const UNIT_MOCKING = readdirSync('test/unit', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `test/unit/${file}`)
  .filter((file) => readFileSync(file, 'utf8').includes('vi.mock('));
const UNIT = {
  environment: 'happy-dom' as const,
  setupFiles: ['test/unit/setup.ts'],
  // UI tests compile lazy pages on first use; on a loaded 2-core machine that alone can
  // take seconds, so each test gets more than vitest's default 5 s.
  testTimeout: 15_000,
  // vitest's default on 2 cores is one worker (cores - 1); the files are independent and
  // mostly CPU in this process, so two keep both cores busy
  maxWorkers: 2,
};
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          ...UNIT,
          include: ['test/unit/**/*.test.{ts,tsx}'],
          exclude: UNIT_MOCKING,
          // A worker's files share one module graph instead of importing the pages, React and
          // happy-dom's globals again for each file (setup.ts resets the DOM, storage, toasts,
          // timers and history after every test): 70-90 s -> 24-30 s, green in shuffled orders.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-mocks',
          ...UNIT,
          include: UNIT_MOCKING,
          isolate: true,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['test/api/**/*.test.ts'],
          // Makes room for the run's seeded templates, and drops them at the end.
          globalSetup: ['test/api/global-setup.ts'],
          testTimeout: 30_000,
          // A block's beforeAll may be the one making the run's seeded template (seconds, more
          // when eight people share the machine).
          hookTimeout: 120_000,
          // Each file opens its own databases; two at once is what two cores carry well.
          maxWorkers: 2,
          // A worker's files share one import of the app (1.75 s a file, 133 s of the layer's 524
          // worker-seconds): each file still builds its own app and databases (useTestContext),
          // and no file mocks a module. 279 s -> 202 s.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          exclude: E2E_SERIAL,
          // The run's seeded data directories, which servers copy (test/e2e/harness.ts).
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          // a file's beforeAll may wait for the run's seed, made while the first files start
          hookTimeout: 300_000,
          // A browser file mostly waits (on the page, the server, the network): one file at a time
          // used under half a core of two. Three at once keep both cores busy without
          // oversubscribing them (docs/testing.md has the figures).
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Files that time faults, restarts and idle windows, or run several servers on a
          // private cluster: alone, after the others, so their timings are their own.
          name: 'e2e-serial',
          environment: 'node',
          include: E2E_SERIAL,
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // two at a time: each has a private cluster and ports of its own, and they mostly wait
          // (deadlines, stalls, restarts); their deadlines hold under load (docs/testing.md)
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          environment: 'node',
          include: ['test/bench/**/*.bench.ts'],
          benchmark: { include: ['test/bench/**/*.bench.ts'] },
        },
      },
      {
        extends: true,
        test: {
          // Scale benchmarks on PostgreSQL (npm run bench): they print figures against targets.
          name: 'scale',
          environment: 'node',
          include: ['test/bench/**/*.scale.ts'],
          testTimeout: 3_600_000,
          hookTimeout: 3_600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
