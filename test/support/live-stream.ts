import { expect } from 'vitest';
import { sql } from 'kysely';
import { PG_ADMIN_URL, type TestContext } from '../api/helpers';
import type { LiveChange } from '../../api/contract/live';
import { sseParser, type SseMessage } from '../../src/api/sse';

// GET /api/live as the tests read it: a stream whose messages are kept as they come, and the
// direct address of the test's own database for the listening connection (PostgreSQL).

export type LiveStream = {
  /** the answer's headers */
  headers: Headers;
  messages: SseMessage[];
  changes(): (LiveChange & { resumeId: string | null })[];
  /** resolves with the first message (from `from` on) that matches; throws once the stream ends or 10 s pass without it */
  waitFor(match: (m: SseMessage) => boolean, from?: number): Promise<SseMessage>;
  /** settles when the server ends the stream (or it is closed) */
  closed: Promise<void>;
  close(): Promise<void>;
};

/** Opens the live stream with `token`, resuming after `lastEventId` when given (sent even when empty). */
export async function openLiveStream(t: TestContext, token: string, lastEventId?: string): Promise<LiveStream> {
  const res = await t.call('GET', '/live', { token, headers: lastEventId !== undefined ? { 'last-event-id': lastEventId } : {} });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const parse = sseParser();
  const messages: SseMessage[] = [];
  let wake: () => void = () => {};
  let ended = false;
  const closed = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      messages.push(...parse(decoder.decode(value, { stream: true })));
      wake();
    }
    ended = true;
    wake();
  })();
  return {
    headers: res.headers,
    messages,
    changes: () =>
      messages.filter((m) => m.event === 'change').map((m) => ({ ...(JSON.parse(m.data) as LiveChange), resumeId: m.id })),
    async waitFor(match, from = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = messages.slice(from).find(match);
        if (found) return found;
        if (ended) throw new Error(`the stream ended without it: ${JSON.stringify(messages.slice(0, 20))}`);
        if (Date.now() > deadline) throw new Error(`not received: ${JSON.stringify(messages.slice(0, 20))}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    closed,
    close: async () => {
      await reader.cancel().catch(() => {});
      await closed;
    },
  };
}

/** The direct URL of the test's own database (PostgreSQL), for the listening connection. */
export async function directDatabaseUrl(t: TestContext): Promise<string> {
  const name = (await sql<{ db: string }>`select current_database() as db`.execute(t.db.kysely)).rows[0]!.db;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
