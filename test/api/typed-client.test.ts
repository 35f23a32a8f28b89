import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { goodCalls, refusedCalls, v1Client } from '../support/v1-client/calls';

// A client made the way an integrator makes one: openapi-typescript turns the server's own
// /api/v1/openapi.json into types, openapi-fetch calls with them. Calls the server refuses must not
// compile (tsc, on test/support/v1-client/calls.ts), and calls that compile must work against the
// running server.

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const clientDir = path.join(root, 'test/support/v1-client');
const SCHEMA_FILE = path.join(clientDir, 'schema.d.ts');
const HEADER =
  '// Made by openapi-typescript from GET /api/v1/openapi.json: do not edit. Remake it with\n// UPDATE_V1_TYPES=1 npx vitest run --project api test/api/typed-client.test.ts\n\n';

/**
 * tsc on one file with the project's compiler options: its error lines (empty when it compiles).
 * A child process the event loop does not wait on: the test's server keeps answering meanwhile.
 */
async function tscErrors(file: string): Promise<string[]> {
  try {
    await promisify(execFile)(
      path.join(root, 'node_modules/.bin/tsc'),
      [
        '--noEmit',
        '--strict',
        '--target',
        'ES2022',
        '--module',
        'ESNext',
        '--moduleResolution',
        'Bundler',
        '--skipLibCheck',
        '--types',
        'node',
        '--lib',
        'ES2023,DOM',
        file,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    return [];
  } catch (err) {
    return String((err as { stdout: string }).stdout)
      .split('\n')
      .filter((l) => l.includes('error TS'));
  }
}

describe.each(DATABASE_KINDS)('A typed client of /api/v1 (%s)', (kind) => {
  const t = useTestContext(kind);
  let server: http.Server;
  let baseUrl: string;
  let key: string;
  let document: Record<string, unknown>;
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
    server = http.createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
  });
  afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('openapi-typescript makes from the served document exactly the types the client compiles against', async () => {
    const types = HEADER + astToString(await openapiTS(document as never));
    if (process.env.UPDATE_V1_TYPES) fs.writeFileSync(SCHEMA_FILE, types);
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8'), 'the document changed: remake schema.d.ts (see its first line)').toBe(types);
  });

  it('the calls the server takes compile; each call it refuses is a type error where it is written', async () => {
    expect(await tscErrors(path.join(clientDir, 'calls.ts'))).toEqual([]);
    // the same file without its @ts-expect-error lines: one error at each refused call, none elsewhere
    const source = fs.readFileSync(path.join(clientDir, 'calls.ts'), 'utf8').split('\n');
    const expected: number[] = [];
    const stripped: string[] = [];
    for (const line of source) {
      if (line.trim().startsWith('// @ts-expect-error')) {
        expected.push(stripped.length + 2);
        stripped.push('');
      } else stripped.push(line);
    }
    expect(expected.length).toBe(Object.keys(refusedCalls).length);
    const copy = path.join(clientDir, `.unchecked-calls-${process.pid}.ts`);
    fs.writeFileSync(copy, stripped.join('\n'));
    try {
      const errors = await tscErrors(copy);
      const lines = [...new Set(errors.map((e) => Number(e.match(/\((\d+),\d+\)/)![1])))].sort((a, b) => a - b);
      expect(lines).toEqual(expected);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  });

  it('the calls that compile work against the running server', async () => {
    const client = v1Client(baseUrl, key);
    const { sent, read, checked, cancelled, missing } = await goodCalls(client, '+14155557001');
    expect(sent.response.status).toBe(201);
    expect(sent.data).toMatchObject({ status: 'pending', customerRef: 'CUST-TYPED' });
    expect(read.data?.id).toBe(sent.data!.id);
    expect(checked.data).toMatchObject({ status: 'pending' });
    expect(cancelled.data).toMatchObject({ status: 'canceled' });
    // an answer the document lists as an error arrives typed as one
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('each call that does not compile is refused by the server: 400 VALIDATION_FAILED naming the field', async () => {
    const client = v1Client(baseUrl, key);
    const fieldOf: Record<keyof typeof refusedCalls, string> = {
      sendWithoutPhone: 'phoneNumber',
      sendWithoutBody: 'phoneNumber',
      paymentWithPhoneOnly: 'productId',
      paymentWithProductAndAmount: 'productId',
      paymentAmountWithoutDescription: 'productId',
      signatureWithoutSigner: 'signerName',
      enrollmentWithoutCustomer: 'customerRef',
      checkWithNumericCode: 'code',
    };
    for (const [name, call] of Object.entries(refusedCalls) as [
      keyof typeof refusedCalls,
      (c: typeof client) => Promise<{ response: Response; error?: unknown }>,
    ][]) {
      const { response, error } = await call(client);
      expect(response.status, name).toBe(400);
      expect(error, name).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [fieldOf[name]]: expect.any(String) } });
    }
  });
});
