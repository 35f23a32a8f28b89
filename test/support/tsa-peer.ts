import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { makeTestPki, type TestPki } from './pki';

// An RFC 3161 time-stamping authority on loopback: each POSTed timestamp query is answered by
// Debian's `openssl ts -reply` with the test PKI's TSA certificate. It also serves the test CA's
// CRL (the address the test certificates name), and can be taken down and brought back to
// cause the outage the sealing code must survive.

const run = promisify(execFile);

export type TsaPeer = {
  /** where timestamp queries go */
  url: string;
  /** host:port, for OUTBOUND_ALLOW_HOSTS */
  host: string;
  pki: TestPki;
  /** queries answered so far */
  served: number;
  /** whether the CA's CRL is served (false: 404, revocation data cannot be had) */
  crl: boolean;
  /** answers `n` timestamp queries with HTTP 503 after answering `skip` more (a TSA that fails part-way) */
  failNext(n: number, skip?: number): void;
  /** stops listening: connections are refused until up() */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startTsaPeer(): Promise<TsaPeer> {
  let pki: TestPki | undefined;
  let counter = 0;
  // `openssl ts -reply` reads and rewrites the TSA's serial file: two at once can read the same
  // serial or a half-written file ("Error during serial number generation"), so replies are made
  // one at a time, as a real TSA's serial counter would be.
  let replies: Promise<unknown> = Promise.resolve();
  const peer = { served: 0, crl: true } as TsaPeer;
  let failing = 0;
  let skipping = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'GET' && req.url === '/ca.crl' && pki && peer.crl) {
          res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(fs.readFileSync(pki.crlFile));
          return;
        }
        if (req.method !== 'POST' || req.url !== '/tsa' || req.headers['content-type'] !== 'application/timestamp-query' || !pki) {
          res.writeHead(404).end();
          return;
        }
        if (skipping > 0) skipping--;
        else if (failing > 0) {
          failing--;
          res.writeHead(503).end();
          return;
        }
        const n = counter++;
        const query = path.join(pki.dir, `q${n}.tsq`);
        const reply = path.join(pki.dir, `r${n}.tsr`);
        fs.writeFileSync(query, Buffer.concat(chunks));
        try {
          const made = replies.then(() => run('openssl', ['ts', '-reply', '-config', pki!.tsa.configFile, '-queryfile', query, '-out', reply]));
          replies = made.catch(() => {});
          await made;
          peer.served++;
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(fs.readFileSync(reply));
        } catch {
          res.writeHead(500).end();
        }
      })();
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  pki = makeTestPki(`${base}/ca.crl`);
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return Object.assign(peer, {
    url: `${base}/tsa`,
    host: `127.0.0.1:${port}`,
    pki,
    down: closeServer,
    failNext: (n: number, skip = 0) => void ((failing = n), (skipping = skip)),
    up: () => listen(port),
    async close() {
      if (server.listening) await closeServer();
      pki!.remove();
    },
  });
}
