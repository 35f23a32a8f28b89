import { Hono } from 'hono';
import type { ServerResponse } from 'node:http';
import { settleSession, type AppEnv } from '../auth/context';
import { ApiError } from '../http/errors';
import { LIVE_PATH, type LiveChange } from '../contract/live';
import { LiveStreamLimit, parseResume, type Sink, type Ticket } from './hub';

// GET /api/live: the tab's one stream (Server-Sent Events). The session check has run before the
// first byte (requireSession); from then on the stream ends when that session is revoked, when
// the token expires, and when the process stops. Nothing here holds a database connection: rows
// are read per account by the hub, not per stream.
//
// The answer goes at once (headers, `retry`, and `ready` with the tab's own resume point); the
// catch-up follows at the pace the client reads it. A client that leaves is noticed at once (the
// connection's close, or the request's abort signal), and its stream leaves its feed.

const encoder = new TextEncoder();
/** bytes the stream holds for a client before the catch-up waits for it to read */
const HIGH_WATER_BYTES = 64 * 1024;
/** bytes of live changes a client that does not read may leave queued before its stream is closed (it resumes from its last id) */
const MAX_QUEUED_BYTES = 1024 * 1024;
/** what a refused tab is told to wait before it tries again */
const RETRY_AFTER_SECONDS = 30;

export function liveRoutes() {
  return new Hono<AppEnv>().get(LIVE_PATH, async (c) => {
    const deps = c.var.deps;
    const hub = deps.live;
    if (!hub) throw new ApiError(503, 'LIVE_UNAVAILABLE', 'Live updates are not available on this server.');
    // The long-lived token never goes in a URL (proxy logs, history, Referer): SPEC §7's `token`
    // query parameter is for links, and a stream is not one.
    if (c.req.query('token') !== undefined)
      throw new ApiError(401, 'TOKEN_IN_URL', 'Send the session token in the Authorization header, not in the address.');
    const session = c.var.session;
    // a changed session answers 401 here, before the stream starts
    await settleSession(deps);
    const header = c.req.header('last-event-id');
    const resume = parseResume(header);
    const expiresAt = session.claims.exp * 1000;

    let ticket: Ticket;
    try {
      ticket = hub.admit({
        accountId: session.accountId,
        sessionId: session.role === 'agent' ? null : session.id,
        agent: session.role === 'agent' ? session.email : null,
        role: session.role,
      });
    } catch (err) {
      if (!(err instanceof LiveStreamLimit)) throw err;
      const message =
        err.scope === 'session'
          ? 'This session has too many live streams open. Close a tab, or wait and try again.'
          : 'This account has too many live streams open on this server. Wait and try again.';
      throw new ApiError(429, 'TOO_MANY_STREAMS', message, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }

    let subscription: { close(): void; resumeId(): string } | null = null;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let done = false;
    let heartbeat: NodeJS.Timeout | null = null;
    let expiry: NodeJS.Timeout | null = null;
    let waiting: (() => void)[] = [];
    const wake = () => {
      const woken = waiting;
      waiting = [];
      for (const resolve of woken) resolve();
    };
    const write = (text: string) => {
      if (done) return;
      try {
        controller.enqueue(encoder.encode(text));
      } catch {
        return finish();
      }
      // a client that stopped reading live changes: its queue is not ours to grow
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) finish();
    };
    const node = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const signal = c.req.raw.signal;
    const finish = () => {
      if (done) return;
      done = true;
      if (heartbeat) clearInterval(heartbeat);
      if (expiry) clearTimeout(expiry);
      node?.off('close', finish);
      signal.removeEventListener('abort', finish);
      if (subscription) subscription.close();
      else ticket.release();
      wake();
      try {
        controller.close();
      } catch {
        // already closed by the client going away
      }
    };
    const sink: Sink = {
      change: (change: LiveChange, resumeId: string) =>
        write(`id: ${resumeId}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`),
      reset: (resumeId: string) => write(`id: ${resumeId}\nevent: reset\ndata: {}\n\n`),
      end: (code) => {
        write(`event: end\ndata: ${JSON.stringify({ code })}\n\n`);
        finish();
      },
      drained: () =>
        done || (controller.desiredSize ?? 0) > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)),
    };
    const body = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c;
        },
        pull() {
          wake();
        },
        cancel() {
          finish();
        },
      },
      { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
    // The client may have left already (while its session was checked): the Node adapter would
    // then never read the body, so nothing else would ever close the stream.
    if (signal.aborted || node?.destroyed) finish();
    signal.addEventListener('abort', finish);
    node?.once('close', finish);
    if (done) return c.body(null, 204);

    write('retry: 2000\n: live\n\n');
    // A malformed resume point starts afresh, and the tab is told to re-read what it shows.
    const bad = header !== undefined && header !== '' && !resume;
    // the early `ready` carries the tab's own resume point; a fresh stream's comes once its feed has one
    if (resume) write(`id: ${header}\nevent: ready\ndata: {}\n\n`);
    const opened = hub.open(ticket, sink, resume);
    subscription = opened;
    if (done) opened.close();
    opened.started.then(
      () => {
        if (done || resume) return;
        if (bad) sink.reset(opened.resumeId());
        // the resume point from the start: a tab that has had no change yet still misses nothing
        write(`id: ${opened.resumeId()}\nevent: ready\ndata: {}\n\n`);
      },
      (err: unknown) => {
        deps.log('Live updates: opening a stream failed', err);
        // the tab reconnects (and the listener's catch-up reads again)
        finish();
      },
    );
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
