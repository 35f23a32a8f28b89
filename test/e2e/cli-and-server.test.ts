import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { cli, ROOT, seededDataDir, serverEnv, startProcess, type RunningServer } from './harness';

describe('operator CLI and server start', () => {
  let env: Record<string, string>;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    env = await serverEnv();
    // the run's demo seed (the CLI's `seed`, made once per run), else this file's own
    const template = await seededDataDir();
    if (template) fs.cpSync(template, env.DATA_DIR!, { recursive: true });
    else expect((await cli(env, 'seed')).code).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('link prints a sign-in URL for an existing admin', async () => {
    const r = await cli(env, 'link', 'owner@acme.test');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(new RegExp(`^${env.PUBLIC_URL}/\\?token=[\\w.-]+$`));
  });

  it('link for several admins prints one sign-in URL each, in the order given', async () => {
    const r = await cli(env, 'link', 'admin@acme.test', 'owner@globex.test');
    expect(r.code).toBe(0);
    const links = r.stdout.trim().split('\n');
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toMatch(new RegExp(`^${env.PUBLIC_URL}/\\?token=[\\w.-]+$`));
    // each signs in the admin named at its place (the session token is a JWT naming its admin)
    const emailOf = (link: string) =>
      JSON.parse(Buffer.from(new URL(link).searchParams.get('token')!.split('.')[1]!, 'base64url').toString()).email;
    expect(links.map(emailOf)).toEqual(['admin@acme.test', 'owner@globex.test']);
  });

  it('link with one unknown e-mail among several says so, exits with 1 and prints no link', async () => {
    const r = await cli(env, 'link', 'owner@acme.test', 'nobody@nowhere.test');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No active admin has the e-mail nobody@nowhere.test');
  });

  it('link for an unknown e-mail says so and exits with 1', async () => {
    const r = await cli(env, 'link', 'nobody@nowhere.test');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No active admin has the e-mail nobody@nowhere.test');
  });

  it('a bad configuration value stops the server with a clear message', async () => {
    const r = await cli({ ...env, PORT: 'eighty' }, 'link', 'owner@acme.test');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PORT must be a port number');
  });

  it('while the server holds the embedded database, the CLI says so instead of opening it', async () => {
    server = await startProcess(env);
    const r = await cli(env, 'link', 'owner@acme.test');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/in use by another process \(pid \d+\), most likely the running server/);
  });

  it('the server prints a sign-in link for each demo user in development', () => {
    expect(server!.output()).toMatch(/owner@acme\.test\s+http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  });

  it('HTML answers carry the security headers', async () => {
    const res = await fetch(`${server!.url}/settings/branding`);
    expect(res.status).toBe(200);
    for (const h of ['strict-transport-security', 'x-content-type-options', 'content-security-policy', 'referrer-policy']) {
      expect(res.headers.get(h)).toBeTruthy();
    }
  });

  it('the browser entry keeps its initial JS within the 100 KB budget, as served with gzip', () => {
    const sizes = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist/sizes.json'), 'utf8'));
    expect(sizes.web.initialGzip).toBeLessThanOrEqual(100 * 1024);
  });
});
