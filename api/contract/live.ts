import * as v from 'valibot';

// Live updates: GET /api/live is a Server-Sent Events stream (read with fetch and the bearer
// token). Each `change` event's data is a LiveChange; its `id:` line is the resume point the tab
// sends back as Last-Event-ID when it reconnects. Other events: `ready` (the stream is open; a
// resuming tab's catch-up follows it), `reset` (reload what it shows: it missed too much) and `end`
// (data {code}: SESSION_REVOKED when the session ended, RESTARTING when the process stops).
// Changes name what changed by id; the page reads what it may see through the normal API.

// Here for the server; the console takes it from ./constants so valibot stays out of its first load.
export { LIVE_PATH } from './constants';

export const LIVE_KINDS = ['task', 'tasks', 'notification', 'credits', 'outbox', 'session'] as const;

export const LiveChangeSchema = v.object({
  id: v.number(),
  /** task: one task changed (ref); tasks: many at once (app only); notification (ref when one); credits (app); outbox (ref when one) */
  kind: v.picklist(LIVE_KINDS),
  app: v.nullable(v.string()),
  ref: v.nullable(v.string()),
});
export type LiveChange = v.InferOutput<typeof LiveChangeSchema>;

export const LiveEndSchema = v.object({ code: v.string() });
export type LiveEnd = v.InferOutput<typeof LiveEndSchema>;

/** How often an idle stream gets a comment line, so proxies that cut silent connections after 60 s keep it. */
export const LIVE_HEARTBEAT_MS = 20_000;
