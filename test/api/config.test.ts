import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../api/config';

describe('configuration from the environment', () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sb-config-'));

  it('defaults to port 3000, the embedded database and the provider.test staff domain', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: dir,
      providerEmailDomain: 'provider.test',
      publicUrl: 'http://localhost:3000',
      autoSeed: true,
    });
  });

  it('generates a session secret once and keeps it in the data directory', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(first);
  });

  it('WORKERS above 1 runs on PostgreSQL without the development identity provider, and says so otherwise', () => {
    const pgUrl = 'postgres://u@127.0.0.1:5432/db';
    expect(loadConfig({ DATA_DIR: tmp() }).workers).toBe(1);
    expect(loadConfig({ DATA_DIR: tmp(), DATABASE_URL: pgUrl, DEV_IDP: 'false', WORKERS: '2' }).workers).toBe(2);
    expect(() => loadConfig({ DATA_DIR: tmp(), DEV_IDP: 'false', WORKERS: '2' })).toThrow(/WORKERS above 1 needs DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: pgUrl, WORKERS: '2' })).toThrow(
      /WORKERS above 1 needs DEV_IDP=false/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), WORKERS: '0' })).toThrow(/WORKERS/);
  });

  it('a bad value is named with what was wrong and what was given', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: 'eighty' })).toThrow(/PORT must be a port number \(got "eighty"\)/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
  });

  it('behind a proxy the client is one hop from the right of X-Forwarded-For unless TRUST_PROXY_HOPS says more', () => {
    expect(loadConfig({ DATA_DIR: tmp() })).toMatchObject({ trustProxy: false, trustProxyHops: 0 });
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true' })).toMatchObject({ trustProxy: true, trustProxyHops: 1 });
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' }).trustProxyHops).toBe(2);
  });

  it('TRUST_PROXY_HOPS must be a small whole number and needs TRUST_PROXY=true', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '0' })).toThrow(
      /TRUST_PROXY_HOPS must be at least 1 \(got "0"\)/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true', TRUST_PROXY_HOPS: 'two' })).toThrow(
      /TRUST_PROXY_HOPS must be a whole number of proxies/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY_HOPS: '2' })).toThrow(
      /TRUST_PROXY_HOPS is only read with TRUST_PROXY=true/,
    );
  });

  it('production refuses to start without its secrets, public URL and PostgreSQL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET, ENCRYPTION_KEY, PUBLIC_URL, DATABASE_URL must be set in production/,
    );
  });

  it('production never auto-seeds and has no default staff domain', () => {
    const c = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: 'y'.repeat(40),
      PUBLIC_URL: 'https://console.example.com',
      DATABASE_URL: 'postgres://db/switchboard',
    });
    expect(c.autoSeed).toBe(false);
    expect(c.providerEmailDomain).toBe('');
  });
});
