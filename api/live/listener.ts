import type { Database } from '../db/index';
import type { LiveHub } from './hub';

// Each process keeps ONE connection that LISTENs on the `live` channel. LISTEN needs a session of
// its own, so on PostgreSQL it is a direct connection (DIRECT_DATABASE_URL, which bypasses a
// transaction pooler) and never one of the pool's. When it is cut (restart, failover, a
// terminated backend) it is opened again with back-off and the hub reads what it missed from the
// table. The embedded database (PGlite) delivers its notifications in-process with the same hub.

export const LIVE_CHANNEL = 'live';
/** what the listening connection calls itself in pg_stat_activity */
export const LISTENER_NAME = 'switchboard-live';

export type ListenerOptions = {
  /** the direct (session) URL; unused on the embedded database */
  url?: string;
  /** first wait before reopening a cut connection, doubled up to maxRetryMs */
  retryMs?: number;
  maxRetryMs?: number;
  log?: (msg: string, err?: unknown) => void;
  /** told each time the connection is (re)opened and listening */
  onListening?: () => void;
};

export type Listener = {
  stop(): Promise<void>;
  /** listening now (readiness: a process that cannot hear changes must not take streams) */
  connected(): boolean;
};

type PgNotification = { channel: string; payload?: string };
type PgListenClient = {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', fn: (n: PgNotification) => void): void;
  on(event: 'error' | 'end', fn: (err?: Error) => void): void;
  removeAllListeners(): void;
};

export async function startListener(db: Database, hub: LiveHub, options: ListenerOptions = {}): Promise<Listener> {
  const log = options.log ?? (() => {});
  if (db.listenEmbedded) {
    const unlisten = await db.listenEmbedded(LIVE_CHANNEL, (payload) => hub.notified(payload));
    hub.catchUp();
    options.onListening?.();
    return { stop: unlisten, connected: () => true };
  }
  if (!options.url) throw new Error('live updates need the direct database URL');
  const pgModule = await import('pg');
  const pg = (pgModule as unknown as { default: typeof pgModule }).default ?? pgModule;
  const url = options.url;
  const firstRetry = options.retryMs ?? 250;
  const maxRetry = options.maxRetryMs ?? 5_000;
  let stopped = false;
  let client: PgListenClient | null = null;
  let timer: NodeJS.Timeout | null = null;
  let wait = firstRetry;

  const open = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: url,
      application_name: LISTENER_NAME,
      keepAlive: true,
    }) as unknown as PgListenClient;
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      c.removeAllListeners();
      c.on('error', () => {});
      if (client === c) client = null;
      if (stopped) return;
      log(`Live updates: the listening connection was lost${err ? ` (${err.message})` : ''}; reopening.`);
      c.end().catch(() => {});
      retry();
    };
    c.on('error', onLost);
    c.on('end', () => onLost());
    c.on('notification', (n) => {
      if (n.channel === LIVE_CHANNEL && n.payload) hub.notified(n.payload);
    });
    try {
      await c.connect();
      await c.query(`listen ${LIVE_CHANNEL}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (stopped || lost) {
      if (!lost) await c.end().catch(() => {});
      return;
    }
    client = c;
    wait = firstRetry;
    // whatever was committed while nobody listened is in the table
    hub.catchUp();
    options.onListening?.();
  };

  const retry = () => {
    if (stopped || timer) return;
    const delay = wait;
    wait = Math.min(wait * 2, maxRetry);
    timer = setTimeout(() => {
      timer = null;
      void open();
    }, delay);
    timer.unref();
  };

  await open();
  return {
    connected: () => client !== null,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}
