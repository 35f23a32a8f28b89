import type * as v from 'valibot';
import type { Hono } from 'hono';
import type { AppEnv } from '../../auth/context';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import type { AppId } from '../../contract/apps';
import type {
  ActionChoicesAnswer,
  ActionResult,
  ActionsUnavailable,
  AppAction,
  DailySeries,
  KpiTile,
  RunActionBody,
  TaskColumn,
  TaskRow,
} from '../../contract/platform';
import type { Caller } from './caller';
import type { TemplateDef } from './sms';
import type { V1Operation } from './v1-spec';

/** The filters of an activity list, resolved: days are already instants in the viewer's zone. */
export type TaskFilter = { status?: string; from?: Date; to?: Date; agent?: string; q?: string };
export type TaskKey = { ts: string; id: string };
export type KeyedTaskRow = TaskRow & { key: TaskKey };

/**
 * What an app plugs into the frame. The console routes, agent routes, dashboards, lists,
 * exports, settings and webhooks are generic over this; adding an app is adding its folder
 * under api/apps/<app>/ with one of these and listing it below.
 */
export type AppModule = {
  id: AppId;
  settings: {
    schema: v.GenericSchema<unknown, Record<string, unknown>>;
    read(trx: Trx, accountId: string): Promise<Record<string, unknown>>;
  };
  templates: readonly TemplateDef[];
  actions: readonly AppAction[];
  columns: readonly TaskColumn[];
  statuses: readonly string[];
  eventTypes: readonly string[];
  runAction(deps: Deps, accountId: string, key: string, body: RunActionBody, caller: Caller): Promise<ActionResult>;
  /**
   * what an action's `choice` field offers, keyed `<action key>.<field name>`: the account's
   * sendable documents, forms or products matching `q` (title, or the exact id), newest first
   */
  /** why the app's actions cannot run now (a configuration state), or null: said before anyone tries */
  unavailable?(deps: Deps, accountId: string): Promise<ActionsUnavailable | null>;
  choices?: Readonly<Record<string, (deps: Deps, accountId: string, q: string) => Promise<ActionChoicesAnswer>>>;
  taskStatus(deps: Deps, accountId: string, taskId: string): Promise<ActionResult>;
  listTasks(trx: Trx, accountId: string, filter: TaskFilter, after: TaskKey | null, limit: number): Promise<KeyedTaskRow[]>;
  /**
   * how many tasks match a filter, counted up to `cap` (a count past it costs more than it
   * tells); the unfiltered total is `task_counts`, which the app's task table must keep with the
   * triggers of migration 0710
   */
  countTasks(trx: Trx, accountId: string, filter: TaskFilter, cap: number): Promise<number>;
  task(trx: Trx, accountId: string, id: string): Promise<TaskRow | null>;
  /** the app's /api/v1 operations */
  v1?: readonly V1Operation[];
  /** the app's own console routes under /api (a session is required), e.g. /passkeys/credentials */
  consoleRoutes?: Hono<AppEnv>;
  /** the app's customer-page calls under /api (no session: the link token is the capability) */
  customerRoutes?: Hono<AppEnv>;
  dashboard(
    trx: Trx,
    accountId: string,
    period: { start: Date; previousStart: Date; end: Date; days: string[]; timeZone: string },
  ): Promise<{ tiles: KpiTile[]; series: DailySeries[] }>;
};

const modules = new Map<AppId, AppModule>();

export function registerApp(module: AppModule): void {
  modules.set(module.id, module);
}

export function appModule(id: string): AppModule | undefined {
  return modules.get(id as AppId);
}

export function appModules(): AppModule[] {
  return [...modules.values()];
}

/** /api/v1 operations of no one app (journeys chain several), with their tag's description. */
export type SharedV1 = { tag: string; description: string; ops: readonly V1Operation[] };
const sharedV1: SharedV1[] = [];

export function registerSharedV1(group: SharedV1): void {
  sharedV1.push(group);
}

export function sharedV1Groups(): readonly SharedV1[] {
  return sharedV1;
}
