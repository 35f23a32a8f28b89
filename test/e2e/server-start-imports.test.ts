import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness';

// Reads the build (npm run test:e2e builds first): what `node dist/server.mjs` loads before it
// can answer. Packages most starts never use load on first use, and the many-file packages every
// start needs are bundled in; either regressing costs each cold start hundreds of milliseconds.

const dist = path.join(ROOT, 'dist');

/** Bare package specifiers of the static imports reachable from the server entry. */
function packagesLoadedAtStart(): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    // esbuild writes static imports at the start of a line; `import("x")` is lazy and not matched
    for (const m of code.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)";?$|^import\s*"([^"]+)";?$/gm)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:'))
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  walk(path.join(dist, 'server.mjs'));
  return packages;
}

describe('the server start', () => {
  it('loads neither the development identity provider, Stripe, the OIDC client, undici, the AWS SDK, the SVG sanitiser nor the log, metrics and tracing libraries', () => {
    const loaded = packagesLoadedAtStart();
    // pino, prom-client and OpenTelemetry load when LOG_LEVEL, METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT ask for them
    for (const lazy of [
      'oidc-provider',
      'stripe',
      'openid-client',
      'undici',
      '@aws-sdk/client-cloudwatch-logs',
      'isomorphic-dompurify',
      'jsdom',
      'pg',
      '@electric-sql/pglite',
      'pino',
      'prom-client',
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-base',
    ]) {
      expect(loaded, lazy).not.toContain(lazy);
    }
  });

  it('reads kysely, hono, jose and valibot from its own bundle, not from hundreds of module files', () => {
    const loaded = packagesLoadedAtStart();
    for (const bundled of ['kysely', 'hono', 'jose', 'valibot']) expect(loaded, bundled).not.toContain(bundled);
  });
});
