import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import type { RequestDatabase } from '../db/index';
import { ApiError } from '../http/errors';
import { LIVE_PATH, type LiveChange } from '../contract/live';
import { parseResume, type Sink, type Subscription } from './hub';

// GET /api/live: the tab's one stream (Server-Sent Events). The session check has run before the
// first byte (requireSession); from then on the stream ends when that session is revoked, when
// the token expires, and when the process stops. Nothing here holds a database connection: rows
// are read per account by the hub, not per stream.

const encoder = new TextEncoder();

export function liveRoutes() {
  return new Hono<AppEnv>().get(LIVE_PATH, async (c) => {
    const deps = c.var.deps;
    const hub = deps.live;
    if (!hub) throw new ApiError(503, 'LIVE_UNAVAILABLE', 'Live updates are not available on this server.');
    const session = c.var.session;
    // a changed session answers 401 here, before the stream starts
    await (deps.db as Partial<RequestDatabase>).settle?.();
    const resume = parseResume(c.req.header('last-event-id'));
    const expiresAt = session.claims.exp * 1000;

    let subscription: Subscription | null = null;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let done = false;
    let heartbeat: NodeJS.Timeout | null = null;
    let expiry: NodeJS.Timeout | null = null;
    const write = (text: string) => {
      if (done) return;
      try {
        controller.enqueue(encoder.encode(text));
      } catch {
        finish();
      }
    };
    const finish = () => {
      if (done) return;
      done = true;
      if (heartbeat) clearInterval(heartbeat);
      if (expiry) clearTimeout(expiry);
      subscription?.close();
      try {
        controller.close();
      } catch {
        // already closed by the client going away
      }
    };
    const sink: Sink = {
      change: (change: LiveChange, resumeId: string) => write(`id: ${resumeId}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`),
      reset: () => write('event: reset\ndata: {}\n\n'),
      end: (code) => {
        write(`event: end\ndata: ${JSON.stringify({ code })}\n\n`);
        finish();
      },
    };
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel() {
        finish();
      },
    });
    // the first bytes go out at once so proxies and the browser see the stream open
    write('retry: 2000\n: live\n\n');
    try {
      subscription = await hub.open({ accountId: session.accountId, sessionId: session.role === 'agent' ? null : session.id, agent: session.role === 'agent' ? session.email : null }, sink, resume);
    } catch (err) {
      done = true;
      throw err;
    }
    if (done) subscription.close();
    // the resume point from the start: a tab that has had no change yet still misses nothing
    write(`id: ${subscription.resumeId()}\nevent: ready\ndata: {}\n\n`);
    heartbeat = setInterval(() => write(': \n\n'), hub.heartbeatMs);
    heartbeat.unref();
    const left = expiresAt - Date.now();
    expiry = setTimeout(() => sink.end('JWT_EXPIRED'), Math.max(0, Math.min(left, 2 ** 31 - 1)));
    expiry.unref();
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        // no cache may keep it and no proxy may transform (compress, buffer) it
        'cache-control': 'no-store, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  });
}
