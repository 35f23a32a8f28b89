import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { AsnConvert } from '@peculiar/asn1-schema';
import { TimeStampReq } from '@peculiar/asn1-tsp';
import { makeTestPki, type TestPki } from './pki';

// An RFC 3161 time-stamping authority on loopback: each POSTed timestamp query is answered by
// Debian's `openssl ts -reply` with the test PKI's TSA certificate. It also serves the test CA's
// CRL (the address the test certificates name), and can be taken down and brought back to
// cause the outage the sealing code must survive.
//
// A failure meant for one seal is given that seal's own address of the TSA (address()): other
// seals running meanwhile (the one that starts right after signing, or an earlier test's still
// in flight) ask at the shared address and can neither take nor cause it. What each address was
// asked is kept (queries), imprint by imprint, so a test can say which time-stamp was refused.

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
  /**
   * Another address of this TSA, for one seal alone: it answers the first `answers` timestamp
   * queries sent to it and refuses every later one with HTTP 503. A seal asks for its
   * signature's time-stamp, then for the document time-stamp, one after the other, so
   * `address(1)` answers the signature's and refuses the document's; `address(0)` refuses all.
   */
  address(answers: number): string;
  /** the timestamp queries asked at `url`, in order: the SHA-256 imprint and whether it was answered */
  queries(url: string): TsaQuery[];
  /** stops listening: connections are refused until up() */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

export type TsaQuery = { imprint: Buffer; answered: boolean };

/** The message imprint a TimeStampReq asks to have time-stamped (null: not a TimeStampReq). */
function imprintOf(query: Buffer): Buffer | null {
  try {
    return Buffer.from(AsnConvert.parse(query, TimeStampReq).messageImprint.hashedMessage.buffer);
  } catch {
    return null;
  }
}

export async function startTsaPeer(): Promise<TsaPeer> {
  let pki: TestPki | undefined;
  let counter = 0;
  // `openssl ts -reply` reads and rewrites the TSA's serial file: two at once can read the same
  // serial or a half-written file ("Error during serial number generation"), so replies are made
  // one at a time, as a real TSA's serial counter would be.
  let replies: Promise<unknown> = Promise.resolve();
  const peer = { served: 0, crl: true } as TsaPeer;
  // path -> how many queries it answers (absent: every one); what each path was asked
  const answering = new Map<string, number>();
  const asked = new Map<string, TsaQuery[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'GET' && req.url === '/ca.crl' && pki && peer.crl) {
          res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(fs.readFileSync(pki.crlFile));
          return;
        }
        const at = req.url ?? '';
        if (
          req.method !== 'POST' ||
          (at !== '/tsa' && !answering.has(at)) ||
          req.headers['content-type'] !== 'application/timestamp-query' ||
          !pki
        ) {
          res.writeHead(404).end();
          return;
        }
        const body = Buffer.concat(chunks);
        const imprint = imprintOf(body);
        if (!imprint) {
          res.writeHead(400).end();
          return;
        }
        const log = asked.get(at) ?? [];
        asked.set(at, log);
        const answered = log.filter((q) => q.answered).length < (answering.get(at) ?? Infinity);
        log.push({ imprint, answered });
        if (!answered) {
          res.writeHead(503).end();
          return;
        }
        const n = counter++;
        const query = path.join(pki.dir, `q${n}.tsq`);
        const reply = path.join(pki.dir, `r${n}.tsr`);
        fs.writeFileSync(query, body);
        try {
          const made = replies.then(() =>
            run('openssl', ['ts', '-reply', '-config', pki!.tsa.configFile, '-queryfile', query, '-out', reply]),
          );
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
    address(answers: number) {
      const at = `/tsa/${answering.size + 1}`;
      answering.set(at, answers);
      return `${base}${at}`;
    },
    queries: (url: string) => [...(asked.get(new URL(url).pathname) ?? [])],
    up: () => listen(port),
    async close() {
      if (server.listening) await closeServer();
      pki!.remove();
    },
  });
}
