import http from 'node:http';
import https from 'node:https';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

// Real HTTP peers on loopback for the outbound integrations: each records what it received
// and answers with whatever the test's handler says.

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A self-signed certificate for localhost, peer.example, 127.0.0.1 and ::1 (test only). */
export const LOOPBACK_CERT = fs.readFileSync(path.join(fixtures, 'loopback-cert.pem'), 'utf8');
const LOOPBACK_KEY = fs.readFileSync(path.join(fixtures, 'loopback-key.pem'), 'utf8');

export type Received = {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
};

export type Peer = {
  url: string;
  host: string;
  port: number;
  received: Received[];
  handle(fn: (req: Received, res: http.ServerResponse) => unknown): void;
  close(): Promise<void>;
};

export async function startPeer(
  handler?: (req: Received, res: http.ServerResponse) => unknown,
  options: { tls?: boolean } = {},
): Promise<Peer> {
  const received: Received[] = [];
  let current = handler ?? ((_req, res) => res.end('ok'));
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const u = new URL(req.url ?? '/', 'http://peer');
      const r: Received = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      try {
        await current(r, res);
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    });
  };
  const server = options.tls
    ? https.createServer({ cert: LOOPBACK_CERT, key: LOOPBACK_KEY }, listener)
    : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    port,
    received,
    handle(fn) {
      current = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
