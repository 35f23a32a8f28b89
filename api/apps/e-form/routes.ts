import { Hono } from 'hono';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import { actorOf } from '../../audit';
import { ApiError } from '../../http/errors';
import { validate } from '../../http/validate';
import { zonedDateTime } from '../../http/zoned-time';
import { fileLink } from '../../storage/files';
import { TASK_COUNT_CAP, TASK_COUNT_HEADER, TASK_LAST_KEY_HEADER, TASK_PAGE_SIZE } from '../../contract/platform';
import {
  answerText,
  FormDraftBodySchema,
  PublishBodySchema,
  SubmissionQuerySchema,
  type StoredAnswers,
  type SubmissionColumn,
  type SubmissionDetail,
  type SubmissionQuery,
} from '../../contract/apps/e-form';
import type { FileAnswer } from '../../contract/logic/e-form-rules';
import type { Deps } from '../../deps';
import { parseKey, uuidParam } from '../platform/request';
import { taskEvents } from '../platform/task-events';
import { taskCount } from '../platform/task-table';
import { addDays, zonedDay, zonedMidnight } from '../../http/zoned-days';
import { closeForm, createForm, getForm, listForms, publishForm, saveDraft, versionDefinition } from './service';
import { archiveForm, deleteDraftForm, restoreForm } from './lifecycle';
import { countSubmissions, formColumns, listSubmissions, submissionById, type SubmissionFilter } from './submissions';

// The eForm console API under /api/e-form: forms (admins) and submissions (supervisors up).
// The activity frame (/api/e-form/tasks, dashboard, settings, webhooks) serves the rest.

function filterOf(q: SubmissionQuery, timeZone: string): SubmissionFilter {
  if (q.from && q.to && q.from > q.to)
    throw new ApiError(400, 'VALIDATION_FAILED', 'to: to is before from', { to: 'to is before from' });
  return {
    formId: q.formId,
    status: q.status,
    from: q.from ? zonedMidnight(q.from, timeZone) : undefined,
    to: q.to ? zonedMidnight(addDays(q.to, 1), timeZone) : undefined,
    agent: q.agent || undefined,
    q: q.q || undefined,
    contains: q.contains || undefined,
  };
}

const isFile = (a: unknown): a is FileAnswer => typeof a === 'object' && a !== null && !Array.isArray(a);

function fileLinks(deps: Deps, accountId: string, answers: StoredAnswers | null): SubmissionDetail['files'] {
  const files: SubmissionDetail['files'] = {};
  for (const [key, a] of Object.entries(answers ?? {})) {
    if (isFile(a) && a.fileId)
      files[key] = {
        url: fileLink(deps, accountId, a.fileId, { filename: a.name, disposition: 'attachment' }),
        name: a.name,
        size: a.size,
      };
  }
  return files;
}

const EXPORT_BATCH = 1000;

export const eformRoutes = new Hono<AppEnv>()
  // supervisors read the list too: it is the Submissions page's form filter
  .get('/e-form/forms', requireRole('supervisor'), async (c) => c.json(await listForms(c.var.deps, c.var.session.accountId)))
  .post('/e-form/forms', requireRole('admin'), validate('json', FormDraftBodySchema), async (c) => {
    const session = c.var.session;
    return c.json(await createForm(c.var.deps, session.accountId, c.req.valid('json').definition, actorOf(session)), 201);
  })
  .get('/e-form/forms/:id', requireRole('admin'), async (c) =>
    c.json(await getForm(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'))),
  )
  .put('/e-form/forms/:id/draft', requireRole('admin'), validate('json', FormDraftBodySchema), async (c) => {
    const session = c.var.session;
    return c.json(
      await saveDraft(c.var.deps, session.accountId, uuidParam(c, 'id'), c.req.valid('json').definition, actorOf(session)),
    );
  })
  .post('/e-form/forms/:id/publish', requireRole('admin'), validate('json', PublishBodySchema), async (c) => {
    const session = c.var.session;
    const by = `${session.firstName} ${session.lastName}`.trim() || session.email;
    return c.json(
      await publishForm(
        c.var.deps,
        session.accountId,
        uuidParam(c, 'id'),
        c.req.valid('json').confirm === true,
        actorOf(session),
        by,
      ),
    );
  })
  .post('/e-form/forms/:id/close', requireRole('admin'), async (c) => {
    const session = c.var.session;
    return c.json(await closeForm(c.var.deps, session.accountId, uuidParam(c, 'id'), actorOf(session)));
  })
  .delete('/e-form/forms/:id', requireRole('admin'), async (c) => {
    const session = c.var.session;
    return c.json(await deleteDraftForm(c.var.deps, session.accountId, uuidParam(c, 'id'), actorOf(session)));
  })
  .post('/e-form/forms/:id/archive', requireRole('admin'), async (c) => {
    const session = c.var.session;
    return c.json(await archiveForm(c.var.deps, session.accountId, uuidParam(c, 'id'), actorOf(session)));
  })
  .post('/e-form/forms/:id/restore', requireRole('admin'), async (c) => {
    const session = c.var.session;
    return c.json(await restoreForm(c.var.deps, session.accountId, uuidParam(c, 'id'), actorOf(session)));
  })

  /** Requests with their answers; with a form chosen, a column per field it ever had. */
  .get('/e-form/submissions', requireRole('supervisor'), validate('query', SubmissionQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { accountId, timeZone } = c.var.session;
    const filter = filterOf(query, timeZone);
    const limit = query.limit ?? TASK_PAGE_SIZE;
    const unfiltered = Object.values(filter).every((x) => x === undefined);
    const { rows, count, columns } = await c.var.deps.db.tenant(accountId, async (trx) => ({
      rows: await listSubmissions(trx, accountId, filter, parseKey(query.lastKey), limit + 1),
      count: query.lastKey
        ? null
        : unfiltered
          ? await taskCount(trx, accountId, 'e-form')
          : await countSubmissions(trx, accountId, filter, TASK_COUNT_CAP),
      columns: filter.formId ? await formColumns(trx, accountId, filter.formId) : ([] as SubmissionColumn[]),
    }));
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    if (count !== null) c.header(TASK_COUNT_HEADER, String(count));
    c.header('access-control-expose-headers', `${TASK_COUNT_HEADER}, ${TASK_LAST_KEY_HEADER}`);
    if (more) c.header(TASK_LAST_KEY_HEADER, `${shown[shown.length - 1]!.key.ts}_${shown[shown.length - 1]!.id}`);
    return c.json({ columns, rows: shown.map(({ key: _key, endedAt: _ended, ...row }) => row) });
  })

  /** The filtered list as CSV, streamed a batch at a time; cells that a spreadsheet would run are escaped. */
  .get('/e-form/submissions/export', requireRole('supervisor'), validate('query', SubmissionQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { accountId, timeZone } = c.var.session;
    const filter = filterOf(query, timeZone);
    const { db, now, log } = c.var.deps;
    const columns = filter.formId ? await db.tenant(accountId, (trx) => formColumns(trx, accountId, filter.formId!)) : [];
    const header = [
      'ID',
      'Form',
      'Version',
      'Status',
      'Phone',
      'Customer',
      'Agent',
      `Sent (${timeZone})`,
      `Submitted (${timeZone})`,
      ...columns.map((col) => (col.removed ? `${col.label} (removed)` : col.label)),
    ];
    // refused before the answer starts, not halfway through it
    const first = parseKey(query.lastKey);
    async function* rows() {
      let after = first;
      for (;;) {
        const batch = await db.tenant(accountId, (trx) => listSubmissions(trx, accountId, filter, after, EXPORT_BATCH));
        for (const r of batch) {
          yield [
            r.id,
            r.formTitle,
            String(r.version),
            r.status,
            r.phoneNumber,
            r.customerRef ?? '',
            r.agent ?? '',
            zonedDateTime(new Date(r.createdAt), timeZone),
            r.submittedAt ? zonedDateTime(new Date(r.submittedAt), timeZone) : '',
            ...columns.map((col) => answerText(r.answers?.[col.id])),
          ];
        }
        if (batch.length < EXPORT_BATCH) return;
        after = batch[batch.length - 1]!.key;
      }
    }
    const csv = stringify({ header: true, columns: header, escape_formulas: true });
    const source = Readable.from(rows());
    source.on('error', (err) => {
      log('e-form export failed', err);
      csv.destroy(err);
    });
    source.pipe(csv);
    return new Response(Readable.toWeb(csv) as ReadableStream, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="e-form-submissions-${zonedDay(now(), timeZone)}.csv"`,
        'cache-control': 'no-store',
      },
    });
  })

  .get('/e-form/submissions/:id', requireRole('supervisor'), async (c) => {
    const id = uuidParam(c, 'id');
    const { accountId } = c.var.session;
    const deps = c.var.deps;
    const detail = await deps.db.tenant(accountId, async (trx): Promise<SubmissionDetail | null> => {
      const row = await submissionById(trx, accountId, id);
      if (!row) return null;
      const definition = await versionDefinition(trx, accountId, row.formId, row.version);
      const { key: _key, endedAt: _ended, ...rest } = row;
      return {
        ...rest,
        fields: definition.fields.map((f) => ({ id: f.id, label: f.label, type: f.type })),
        hiddenFields: definition.hiddenFields,
        files: fileLinks(deps, accountId, row.answers),
        events: (await taskEvents(trx, accountId, id)).map((e) => ({ time: e.time, description: e.description, actor: e.actor })),
      };
    });
    if (!detail) throw new ApiError(404, 'NOT_FOUND', 'There is no submission with this id.');
    return c.json(detail);
  });
