import net from 'node:net';

// A loopback TCP proxy between the server and PostgreSQL that misbehaves on demand, as networks
// do: it cuts every connection, refuses new ones, stalls (holds every byte, both ways, without
// closing anything) or delays each chunk.

export type TcpProxy = {
  port: number;
  /** closes every open connection at once (a reset, as a dropped route or a reaper does) */
  cut(): void;
  /** while on, a new connection is reset as soon as it is accepted */
  refuse(on: boolean): void;
  /** while on, nothing moves in either direction; connections stay open and new ones hang */
  stall(on: boolean): void;
  /** every chunk waits this long before it is passed on (0: none) */
  delay(ms: number): void;
  /** connections open now */
  open(): number;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let refusing = false;
  let stalled = false;
  let delayMs = 0;

  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      // constant delay keeps the order: timers of one duration fire in the order they were set
      if (delayMs > 0) setTimeout(() => to.writable && to.write(chunk), delayMs);
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };

  const server = net.createServer((client) => {
    if (refusing) return client.resetAndDestroy();
    const upstream = net.connect({ host: target.host ?? '127.0.0.1', port: target.port });
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    if (stalled) client.pause(), upstream.pause();
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      for (const { client, upstream } of pairs) client.resetAndDestroy(), upstream.destroy();
      pairs.clear();
    },
    refuse(on) {
      refusing = on;
    },
    stall(on) {
      stalled = on;
      for (const { client, upstream } of pairs) {
        if (on) client.pause(), upstream.pause();
        else client.resume(), upstream.resume();
      }
    },
    delay(ms) {
      delayMs = ms;
    },
    open: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) client.destroy(), upstream.destroy();
        server.close(() => resolve());
      }),
  };
}
