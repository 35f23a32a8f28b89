import { Hono, type Context } from 'hono';
import { measured } from '../../observability/metrics';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import * as v from 'valibot';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import { actorOf } from '../../audit';
import { ApiError } from '../../http/errors';
import { validate, validationError } from '../../http/validate';
import {
  ActionChoicesQuerySchema,
  DashboardQuerySchema,
  RunActionBodySchema,
  SmsContentBodySchema,
  SmsTestBodySchema,
  TASK_COUNT_CAP,
  TASK_COUNT_HEADER,
  TASK_LAST_KEY_HEADER,
  TASK_PAGE_SIZE,
  TaskQuerySchema,
  WebhookEndpointBodySchema,
  type AppActionsAnswer,
  type DashboardAnswer,
  type SmsContentAnswer,
  type SmsTestAnswer,
  type TaskDetail,
  type TaskQuery,
  type TaskRow,
} from '../../contract/platform';
import { zonedDateTime } from '../../http/zoned-time';
import { appModule, type AppModule, type TaskFilter } from './registry';
import { parseKey, requestOrigin, uuidParam } from './request';
import { sessionCaller } from './caller';
import { sentToDevOutbox } from '../../sms/service';
import { storedAppSettings } from './app-settings';
import { companyName, parseTemplateKey, templateProblem, templatesOf } from './sms';
import { taskEvents } from './task-events';
import { addDays, zonedDay, zonedMidnight } from '../../http/zoned-days';
import { deliveriesOf, endpointById, listEndpoints } from './webhook-events';
import { taskCount } from './task-table';
import {
  createWebhookEndpoint,
  removeWebhookEndpoint,
  resendWebhookDelivery,
  saveGeneralSettings,
  saveSmsContent,
  sendTestSms,
  sendWebhookTest,
  updateWebhookEndpoint,
} from './service';
import { visibleApps } from '../../contract/apps';
import { JOURNEY_EVENT_TYPES } from '../../contract/journeys';
import { createLinkToken, linkUrl } from '../../customer-pages/links';
import type { CustomerPagePreview } from '../../contract/platform';

// The console API every app shares, under /api/{app}/… . The app's module (api/apps/<app>)
// supplies its settings schema, templates, columns, statuses, events and queries.

export function moduleOf(c: Context<AppEnv>): AppModule {
  const module = appModule(c.req.param('app') ?? '');
  // an unreleased app exists only for users of the provider's own e-mail domain
  if (module && !visibleApps(c.var.session.email, c.var.deps.config.providerEmailDomain).some((a) => a.id === module.id))
    throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  if (!module) throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  return module;
}

function filterOf(module: AppModule, q: TaskQuery, timeZone: string): TaskFilter {
  if (q.status && !module.statuses.includes(q.status))
    throw new ApiError(400, 'VALIDATION_FAILED', 'status: status is not a status of this app', {
      status: 'status is not a status of this app',
    });
  if (q.from && q.to && q.from > q.to)
    throw new ApiError(400, 'VALIDATION_FAILED', 'to: to is before from', { to: 'to is before from' });
  return {
    status: q.status,
    from: q.from ? zonedMidnight(q.from, timeZone) : undefined,
    to: q.to ? zonedMidnight(addDays(q.to, 1), timeZone) : undefined,
    agent: q.agent || undefined,
    q: q.q || undefined,
  };
}

const isUnfiltered = (f: TaskFilter) => Object.values(f).every((value) => value === undefined);

const EXPORT_BATCH = 1000;

export const appConsoleRoutes = new Hono<AppEnv>()
  .get('/:app/dashboard', requireRole('supervisor'), validate('query', DashboardQuerySchema), async (c) => {
    const module = moduleOf(c);
    const { days } = c.req.valid('query');
    const { accountId, timeZone } = c.var.session;
    const now = c.var.deps.now();
    const today = zonedDay(now, timeZone);
    const first = addDays(today, -(days - 1));
    const list = Array.from({ length: days }, (_, i) => addDays(first, i));
    const period = {
      start: zonedMidnight(first, timeZone),
      previousStart: zonedMidnight(addDays(first, -days), timeZone),
      end: zonedMidnight(addDays(today, 1), timeZone),
      days: list,
      timeZone,
    };
    const answer = await c.var.deps.db.tenant(accountId, async (trx) => {
      const { tiles, series } = await module.dashboard(trx, accountId, period);
      const latest = (await module.listTasks(trx, accountId, {}, null, 5)).map(({ key: _key, ...row }) => row);
      return { app: module.id, days, timeZone, tiles, series, latest } satisfies DashboardAnswer;
    });
    return c.json(answer);
  })

  .get('/:app/tasks', requireRole('supervisor'), validate('query', TaskQuerySchema), async (c) => {
    const module = moduleOf(c);
    const query = c.req.valid('query');
    const { accountId, timeZone } = c.var.session;
    const filter = filterOf(module, query, timeZone);
    const limit = query.limit ?? TASK_PAGE_SIZE;
    // the total is given on the first page only: later pages stay one index range scan, as
    // cheap at page 1,000 as at page 2. Unfiltered, it is the trigger-kept counter; filtered, a
    // count of index entries up to TASK_COUNT_CAP.
    const { rows, count } = await c.var.deps.db.tenant(accountId, async (trx) => ({
      rows: await module.listTasks(trx, accountId, filter, parseKey(query.lastKey), limit + 1),
      count: query.lastKey
        ? null
        : isUnfiltered(filter)
          ? await taskCount(trx, accountId, module.id)
          : await module.countTasks(trx, accountId, filter, TASK_COUNT_CAP),
    }));
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    if (count !== null) c.header(TASK_COUNT_HEADER, String(count));
    c.header('access-control-expose-headers', `${TASK_COUNT_HEADER}, ${TASK_LAST_KEY_HEADER}`);
    if (more) {
      const last = shown[shown.length - 1]!.key;
      c.header(TASK_LAST_KEY_HEADER, `${last.ts}_${last.id}`);
    }
    return c.json(shown.map(({ key: _key, ...row }) => row satisfies TaskRow));
  })

  /** The filtered list as CSV, streamed a batch at a time; filters are checked before any byte. */
  .get('/:app/tasks/export', requireRole('supervisor'), validate('query', TaskQuerySchema), async (c) => {
    const module = moduleOf(c);
    const query = c.req.valid('query');
    const { accountId, timeZone } = c.var.session;
    const filter = filterOf(module, query, timeZone);
    const { db, now, log } = c.var.deps;
    // checked before the first byte: a bad key is a 400, not a broken stream
    const first = parseKey(query.lastKey);
    async function* rows() {
      let after = first;
      for (;;) {
        const batch = await db.tenant(accountId, (trx) => module.listTasks(trx, accountId, filter, after, EXPORT_BATCH));
        for (const row of batch) {
          yield module.columns.map((col) => {
            const value = col.key in row ? (row as unknown as Record<string, unknown>)[col.key] : row.values[col.key];
            if (value === null || value === undefined) return '';
            return col.kind === 'date' ? zonedDateTime(new Date(String(value)), timeZone) : String(value);
          });
        }
        if (batch.length < EXPORT_BATCH) return;
        after = batch[batch.length - 1]!.key;
      }
    }
    const csv = stringify({
      header: true,
      columns: module.columns.map((col) => (col.kind === 'date' ? `${col.label} (${timeZone})` : col.label)),
      escape_formulas: true,
    });
    const source = Readable.from(rows());
    source.on('error', (err) => {
      log(`${module.id} export failed`, err);
      csv.destroy(err);
    });
    source.pipe(csv);
    const day = zonedDay(now(), timeZone);
    return new Response(Readable.toWeb(csv) as ReadableStream, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${module.id}-${day}.csv"`,
        'cache-control': 'no-store',
      },
    });
  })

  .get('/:app/tasks/:id', requireRole('supervisor'), async (c) => {
    const module = moduleOf(c);
    const id = uuidParam(c, 'id');
    const { accountId } = c.var.session;
    const detail = await c.var.deps.db.tenant(accountId, async (trx) => {
      const task = await module.task(trx, accountId, id);
      return task ? ({ ...task, events: await taskEvents(trx, accountId, id) } satisfies TaskDetail) : null;
    });
    if (!detail) throw new ApiError(404, 'NOT_FOUND', 'There is no task with this id.');
    return c.json(detail);
  })

  .get('/:app/settings/general', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const { accountId } = c.var.session;
    return c.json(await c.var.deps.db.tenant(accountId, (trx) => module.settings.read(trx, accountId)));
  })

  .put('/:app/settings/general', requireRole('admin'), validate('json', v.unknown()), async (c) => {
    const module = moduleOf(c);
    const parsed = v.safeParse(module.settings.schema, c.req.valid('json'));
    if (!parsed.success) throw validationError(parsed.issues);
    const session = c.var.session;
    return c.json(await saveGeneralSettings(c.var.deps, session.accountId, actorOf(session), module, parsed.output));
  })

  .get('/:app/settings/sms-content', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const { accountId } = c.var.session;
    const answer = await c.var.deps.db.tenant(
      accountId,
      async (trx): Promise<SmsContentAnswer> => ({
        company: await companyName(trx, accountId),
        templates: templatesOf(module.id, module.templates, (await storedAppSettings(trx, accountId, module.id)).templates),
      }),
    );
    return c.json(answer);
  })

  .put('/:app/settings/sms-content', requireRole('admin'), validate('json', SmsContentBodySchema), async (c) => {
    const module = moduleOf(c);
    const { templates } = c.req.valid('json');
    const fields: Record<string, string> = {};
    for (const [key, body] of Object.entries(templates)) {
      // `<key>@<locale>` is the text of a template in another caller language
      const parsed = parseTemplateKey(module.templates, key);
      if (!parsed) fields[`templates.${key}`] = 'This app sends no such message';
      else if (body.trim()) {
        const problem = templateProblem(parsed.def, body);
        if (problem) fields[`templates.${key}`] = problem;
      }
    }
    const first = Object.entries(fields)[0];
    if (first) throw new ApiError(400, 'VALIDATION_FAILED', `${first[0]}: ${first[1]}`, fields);
    const session = c.var.session;
    return c.json(await saveSmsContent(c.var.deps, session.accountId, actorOf(session), module, templates));
  })

  .post('/:app/settings/sms-content/test', requireRole('admin'), validate('json', SmsTestBodySchema), async (c) => {
    const module = moduleOf(c);
    const { phoneNumber, message } = c.req.valid('json');
    const session = c.var.session;
    const sent = await sendTestSms(c.var.deps, session.accountId, actorOf(session), module, phoneNumber, message);
    return c.json({ sent: true, provider: sent.provider, text: sent.text } satisfies SmsTestAnswer);
  })

  /** A short-lived link to the preview customer page ("how your customers see your links"). */
  .get('/:app/customer-page-preview', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const { accountId } = c.var.session;
    const { db, config, now } = c.var.deps;
    const answer = await db.tenant(accountId, async (trx): Promise<CustomerPagePreview> => {
      const { token, expiresAt } = await createLinkToken(trx, accountId, {
        app: module.id,
        purpose: 'preview',
        ttlMs: 15 * 60_000,
        now: now(),
      });
      return { url: await linkUrl(trx, accountId, config.publicUrl, token), expiresAt: expiresAt.toISOString() };
    });
    return c.json(answer);
  })

  .get('/:app/webhooks', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const { accountId } = c.var.session;
    return c.json(await c.var.deps.db.tenant(accountId, (trx) => listEndpoints(trx, accountId, module.id)));
  })

  .post('/:app/webhooks', requireRole('admin'), validate('json', WebhookEndpointBodySchema), async (c) => {
    const module = moduleOf(c);
    const body = checkedEndpoint(module, c.req.valid('json'), c.var.deps.config);
    const session = c.var.session;
    return c.json(await createWebhookEndpoint(c.var.deps, session.accountId, actorOf(session), module, body), 201);
  })

  .put('/:app/webhooks/:id', requireRole('admin'), validate('json', WebhookEndpointBodySchema), async (c) => {
    const module = moduleOf(c);
    const id = uuidParam(c, 'id');
    const body = checkedEndpoint(module, c.req.valid('json'), c.var.deps.config);
    const session = c.var.session;
    const updated = await updateWebhookEndpoint(c.var.deps, session.accountId, actorOf(session), module, id, body);
    if (!updated) throw new ApiError(404, 'NOT_FOUND', 'There is no such webhook endpoint.');
    return c.json(updated);
  })

  .delete('/:app/webhooks/:id', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const id = uuidParam(c, 'id');
    const session = c.var.session;
    const removed = await removeWebhookEndpoint(c.var.deps, session.accountId, actorOf(session), module, id);
    if (!removed) throw new ApiError(404, 'NOT_FOUND', 'There is no such webhook endpoint.');
    return c.json({ ok: true });
  })

  .post('/:app/webhooks/:id/test', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const id = uuidParam(c, 'id');
    const session = c.var.session;
    const eventId = await sendWebhookTest(c.var.deps, session.accountId, actorOf(session), module, id);
    if (!eventId) throw new ApiError(404, 'NOT_FOUND', 'There is no such webhook endpoint.');
    return c.json({ eventId: `evt_${eventId.replaceAll('-', '')}`, queued: true as const }, 201);
  })

  .get('/:app/webhooks/:id/deliveries', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const id = uuidParam(c, 'id');
    const { accountId } = c.var.session;
    const list = await c.var.deps.db.tenant(accountId, async (trx) =>
      (await endpointById(trx, accountId, module.id, id)) ? deliveriesOf(trx, accountId, id) : null,
    );
    if (!list) throw new ApiError(404, 'NOT_FOUND', 'There is no such webhook endpoint.');
    return c.json(list);
  })

  /** Delivers the same event again, as a new job (the receiver sees the same event id). */
  .post('/:app/webhooks/deliveries/:id/resend', requireRole('admin'), async (c) => {
    const module = moduleOf(c);
    const session = c.var.session;
    const eventId = await resendWebhookDelivery(c.var.deps, session.accountId, actorOf(session), module, uuidParam(c, 'id'));
    if (!eventId) throw new ApiError(404, 'NOT_FOUND', 'There is no such delivery.');
    return c.json({ eventId: `evt_${eventId.replaceAll('-', '')}`, queued: true as const }, 201);
  });

function checkedEndpoint(module: AppModule, body: v.InferOutput<typeof WebhookEndpointBodySchema>, config: { env: string }) {
  // an app's endpoint may also take the events of the journeys its app is a step of
  const unknown = body.eventTypes.find(
    (t) => !module.eventTypes.includes(t) && !(JOURNEY_EVENT_TYPES as readonly string[]).includes(t),
  );
  if (unknown)
    throw new ApiError(400, 'VALIDATION_FAILED', `eventTypes: ${unknown} is not an event of this app`, {
      eventTypes: `${unknown} is not an event of this app`,
    });
  void config;
  return body;
}

/** Agent actions and task polling: admins and supervisors in the console, and agent sessions. */
export const appActionRoutes = new Hono<AppEnv>()
  .get('/:app/actions', async (c) => {
    const module = moduleOf(c);
    const unavailable = await module.unavailable?.(c.var.deps, c.var.session.accountId);
    return c.json({
      app: module.id,
      actions: [...module.actions],
      ...(unavailable ? { unavailable } : {}),
    } satisfies AppActionsAnswer);
  })
  /** What a `choice` field of an action offers (the picker's list), for the console and agents alike. */
  .get('/:app/actions/:key/choices/:field', validate('query', ActionChoicesQuerySchema), async (c) => {
    const module = moduleOf(c);
    const { key, field } = c.req.param();
    const list = module.actions.find((a) => a.key === key)?.fields.some((f) => f.name === field && f.kind === 'choice')
      ? module.choices?.[`${key}.${field}`]
      : undefined;
    if (!list) throw new ApiError(404, 'NOT_FOUND', 'This action has no such list.');
    return c.json(await list(c.var.deps, c.var.session.accountId, c.req.valid('query').q ?? ''));
  })
  .post('/:app/actions/:key', validate('json', RunActionBodySchema), async (c) => {
    const module = moduleOf(c);
    const session = c.var.session;
    const origin = requestOrigin(c);
    const key = c.req.param('key');
    // the service's span and timing, named by the app and its action (a key no action has is
    // named once, as unknown, whatever it was)
    const name = `action.${module.id}.${module.actions.some((a) => a.key === key) ? key : 'unknown'}`;
    const result = await measured(c.var.deps, name, () =>
      module.runAction(
        c.var.deps,
        session.accountId,
        key,
        c.req.valid('json'),
        sessionCaller(session, origin.ip, origin.userAgent),
      ),
    );
    return c.json((await sentToDevOutbox(c.var.deps, session.accountId)) ? { ...result, devOutbox: true } : result, 201);
  })
  .get('/:app/tasks/:id/status', async (c) => {
    const module = moduleOf(c);
    return c.json(await module.taskStatus(c.var.deps, c.var.session.accountId, uuidParam(c, 'id')));
  });
