import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

// HTTPS on loopback for pages a test must serve over https (a Webex client framing the app),
// with a self-signed certificate made by Debian's openssl. A front either ends TLS and passes the
// bytes on to a loopback HTTP server as they come (so a stream that never ends, the live updates,
// flows through it as through a real front), or answers with a handler of its own.

export type Credentials = { key: Buffer; cert: Buffer };

/** A self-signed certificate (P-256) for these host names. */
export function selfSignedCertificate(hostnames: string[]): Credentials {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-front-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '2',
        '-subj',
        `/CN=${hostnames[0]}`,
        '-addext',
        `subjectAltName=${hostnames.map((h) => `DNS:${h}`).join(',')}`,
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export type TlsFront = { port: number; url: string; close(): Promise<void> };

/** `target`: the loopback HTTP port to pass bytes on to, or a handler that answers itself. */
export async function startTlsFront(target: number | http.RequestListener, credentials: Credentials): Promise<TlsFront> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  let server: net.Server;
  if (typeof target === 'number') {
    server = tls.createServer(credentials, (client) => {
      const upstream = net.connect({ host: '127.0.0.1', port: target });
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  } else {
    server = https.createServer(credentials, target);
    server.on('secureConnection', track);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
