import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

// Writes each file's and each test's durations as JSON (TEST_TIMES_OUT) for test/times/print.mjs.
// Per file: the import and environment time, the tests, and what is left of the file's run:
// its beforeAll/afterAll hooks (where databases, servers and browsers start and stop).
export default class TimesReporter implements Reporter {
  private started = Date.now();

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules.map((m) => {
      const d = m.diagnostic();
      const tests = [...m.children.allTests()].map((t) => ({
        name: t.fullName,
        state: t.result().state,
        ms: Math.round(t.diagnostic()?.duration ?? 0),
        retries: t.diagnostic()?.retryCount ?? 0,
        flaky: t.diagnostic()?.flaky ?? false,
        // kept with the figures, so a failure seen in a long run can be read afterwards
        errors: (t.result().errors ?? []).map((e) => e.message ?? String(e)),
      }));
      const testsMs = tests.reduce((s, t) => s + t.ms, 0);
      return {
        file: path.relative(process.cwd(), m.moduleId),
        project: m.project.name,
        state: m.state(),
        importMs: Math.round(d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration),
        testsMs,
        hooksMs: Math.max(0, Math.round(d.duration - testsMs)),
        totalMs: Math.round(d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration),
        tests,
      };
    });
    const out = process.env.TEST_TIMES_OUT ?? 'test-times.json';
    fs.writeFileSync(out, JSON.stringify({ wallMs: Date.now() - this.started, files }, null, 1));
  }
}
