import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import { audit, type Actor } from '../audit';
import { decryptSecret, encryptSecret } from '../crypto';
import { ApiError } from '../http/errors';
import { APPS } from '../contract/apps';
import type { CustomerData, PrivacyRequest, PrivacySubject } from '../contract/privacy';
import type { PrivacyRequestsTable } from '../db/schema';
import { countProgress, PRIVACY_LEASE_MS, STORES, widenSubject, type Subject } from './stores';
import { buildExport } from './export';
import { fileLink } from '../storage/files';
import { runSoon } from '../jobs/runner';

// A caller's data on request: what is held (search), erasure and export. One function per action,
// used by the console routes and /api/v1 alike. A request is a row in privacy_requests, worked
// through store by store in short batches (api/privacy/stores.ts) under a lease, so a process or
// a database connection that dies halfway leaves it to be finished by the next run: by the
// request's own call when it comes back, or by the `privacy.requests` job.

/** Who asked: the audit log's actor and the name the receipt shows. */
export type Requester = { actor: Actor; name: string; via: 'console' | 'api' };

/** Records redacted per transaction: short enough that no lock is held for long. */
export const ERASURE_BATCH = 200;
const LEASE_MS = PRIVACY_LEASE_MS;
/** How long an export's download link works. */
export const EXPORT_LINK_SECONDS = 600;

const subjectKind = (s: PrivacySubject) => (s.phoneNumber ? 'phone' : 'customer_ref') as 'phone' | 'customer_ref';

function subjectHash(deps: Deps, accountId: string, s: PrivacySubject): string {
  const key = crypto.createHash('sha256').update(`switchboard:privacy:${deps.config.encryptionKey}`).digest();
  return crypto
    .createHmac('sha256', key)
    .update(`${accountId}\n${subjectKind(s)}\n${s.phoneNumber ?? s.customerRef}`)
    .digest('hex');
}

const asked = (s: PrivacySubject) => ({ phone: s.phoneNumber, ref: s.customerRef });

/** What is held about one caller, by app: the console's Customer data screen and POST /api/v1/customer-data/search. */
export async function findCustomerData(deps: Deps, accountId: string, subject: PrivacySubject): Promise<CustomerData> {
  return deps.db.tenant(accountId, async (trx) => {
    const s = await widenSubject(trx, accountId, asked(subject));
    const counts = [];
    for (const store of STORES) counts.push({ store, count: await store.count(trx, accountId, s) });
    const apps = new Map<string, CustomerData['apps'][number]>();
    for (const { store, count } of counts) {
      if (!count) continue;
      const title =
        store.app === 'platform'
          ? 'Shared records (messages, logs, webhooks, audit)'
          : (APPS.find((a) => a.id === store.app)?.title ?? store.app);
      const entry = apps.get(store.app) ?? { app: store.app, title, count: 0, stores: [] };
      entry.count += count;
      entry.stores.push({ store: store.key, label: store.label, count });
      apps.set(store.app, entry);
    }
    const legalHolds = await heldCount(trx, accountId, s);
    return { total: counts.reduce((n, c) => n + c.count, 0), apps: [...apps.values()], legalHolds };
  });
}

async function heldCount(trx: Trx, accountId: string, s: Subject): Promise<number> {
  const row = await sql<{
    n: number;
  }>`select count(*)::int as n from sig_requests where account_id = ${accountId} and legal_hold_at is not null
    and (phone_number = any(${s.phones}::text[]) or customer_ref = any(${s.refs}::text[]))`.execute(trx);
  return row.rows[0]?.n ?? 0;
}

type RequestRow = Omit<PrivacyRequestsTable, 'id' | 'progress' | 'held' | 'attempts'> & {
  id: string;
  progress: Record<string, number>;
  held: { requestId: string; since: string }[];
  attempts: number;
};

function view(deps: Deps, row: RequestRow): PrivacyRequest {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    subjectKind: row.subject_kind,
    requestedBy: row.requested_by,
    requestedVia: row.requested_via,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    counts: row.progress,
    held: row.held,
    downloadUrl: row.kind === 'export' && row.state === 'done' && row.file_id ? exportLink(deps, row) : null,
  };
}

/** An export's ZIP, for 10 minutes, without a console session (the storage area's signed file link). */
function exportLink(deps: Deps, row: RequestRow): string {
  return fileLink(deps, row.account_id, row.file_id!, {
    ttlSeconds: EXPORT_LINK_SECONDS,
    filename: `caller-data-${row.id.slice(0, 8)}.zip`,
    disposition: 'attachment',
  });
}

async function requestRow(trx: Trx, accountId: string, id: string): Promise<RequestRow | undefined> {
  return (await trx
    .selectFrom('privacy_requests')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst()) as RequestRow | undefined;
}

/**
 * Makes (or finds) the request and works it through. Idempotent: while a request for the same
 * caller and kind is open, asking again answers that one (and carries it on); once done, asking
 * again makes a new one, which erases whatever came in since (nothing, usually).
 */
async function openRequest(
  deps: Deps,
  accountId: string,
  kind: 'erasure' | 'export',
  subject: PrivacySubject,
  by: Requester,
): Promise<{ id: string; created: boolean }> {
  const hash = subjectHash(deps, accountId, subject);
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const open = await trx
      .selectFrom('privacy_requests')
      .select('id')
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .where('subject_hash', '=', hash)
      .where('state', '<>', 'done')
      .executeTakeFirst();
    if (open) return { id: open.id, created: false };
    const s = await widenSubject(trx, accountId, asked(subject));
    const row = await trx
      .insertInto('privacy_requests')
      .values({
        account_id: accountId,
        kind,
        subject_kind: subjectKind(subject),
        subject_hash: hash,
        subject_enc: encryptSecret(JSON.stringify(s), deps.config.encryptionKey),
        state: 'pending',
        requested_by: by.name,
        requested_via: by.via,
        created_at: now,
      })
      // two requests for the same caller at once: the second finds the first (the unique index on open requests)
      .onConflict((oc) => oc.columns(['account_id', 'kind', 'subject_hash']).where('state', '<>', 'done').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      const other = await trx
        .selectFrom('privacy_requests')
        .select('id')
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .where('subject_hash', '=', hash)
        .where('state', '<>', 'done')
        .executeTakeFirstOrThrow();
      return { id: other.id, created: false };
    }
    const what = kind === 'erasure' ? 'the erasure' : 'an export';
    await audit(trx, accountId, by.actor, {
      namespace: 'global',
      description: `Requested ${what} of a caller's data by ${subject.phoneNumber ? 'phone number' : 'customer reference'} (request ${row.id})`,
      event: `privacy.${kind}-requested`,
    });
    return { id: row.id, created: true };
  });
}

/** POST /api/v1/erasure-requests and the console's Erase: erases now, answers the receipt. */
export async function requestErasure(
  deps: Deps,
  accountId: string,
  subject: PrivacySubject,
  by: Requester,
): Promise<{ request: PrivacyRequest; created: boolean }> {
  const { id, created } = await openRequest(deps, accountId, 'erasure', subject, by);
  await workRequest(deps, accountId, id);
  return { request: await getPrivacyRequest(deps, accountId, id), created };
}

/**
 * POST /api/v1/export-requests and the console's Export: answers at once with the request
 * (pending); the `privacy.exports` job makes the ZIP, so no request holds a connection or a lease
 * while a caller's files are read. It asks the job to run at its next poll rather than its next
 * interval; the console and API callers ask for the request again until it is done.
 */
export async function requestExport(
  deps: Deps,
  accountId: string,
  subject: PrivacySubject,
  by: Requester,
): Promise<{ request: PrivacyRequest; created: boolean }> {
  const { id, created } = await openRequest(deps, accountId, 'export', subject, by);
  if (created) await runSoon(deps, EXPORT_JOB);
  return { request: await getPrivacyRequest(deps, accountId, id), created };
}

export const EXPORT_JOB = 'privacy.exports';

/** The `privacy.exports` job: makes every open export whose lease is free (new ones, and ones a dead process left). */
export async function runOpenExports(deps: Deps): Promise<number> {
  const now = deps.now();
  const open = await deps.db.system((trx) =>
    sql<{
      id: string;
      account_id: string;
    }>`select id::text, account_id::text from privacy_requests where kind = 'export' and state <> 'done' and (locked_until is null or locked_until <= ${now}) order by created_at limit 20`.execute(
      trx,
    ),
  );
  let worked = 0;
  for (const r of open.rows) if (await workRequest(deps, r.account_id, r.id)) worked++;
  return worked;
}

export async function getPrivacyRequest(
  deps: Deps,
  accountId: string,
  id: string,
  kind?: 'erasure' | 'export',
): Promise<PrivacyRequest> {
  const row = await deps.db.tenant(accountId, (trx) => requestRow(trx, accountId, id));
  if (!row || (kind && row.kind !== kind)) throw new ApiError(404, 'NOT_FOUND', 'There is no such request.');
  return view(deps, row);
}

export async function listPrivacyRequests(deps: Deps, accountId: string): Promise<PrivacyRequest[]> {
  const rows = await deps.db.tenant(accountId, (trx) =>
    trx
      .selectFrom('privacy_requests')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(100)
      .execute(),
  );
  return rows.map((r) => view(deps, r as RequestRow));
}

/**
 * Takes the request's lease and works it to the end. Answers false when another worker holds it
 * (it will finish it) or it is done. A failure (a store's S3 bucket or Twilio unreachable, the
 * database gone) leaves the request open with its progress: the next run carries on from there.
 */
export async function workRequest(deps: Deps, accountId: string, id: string): Promise<boolean> {
  const now = deps.now();
  const leased = await deps.db.tenant(accountId, async (trx) => {
    const row = (
      await sql<RequestRow>`update privacy_requests set state = 'running', started_at = coalesce(started_at, ${now}), attempts = attempts + 1, locked_until = ${new Date(now.getTime() + LEASE_MS)}
      where account_id = ${accountId} and id = ${id} and state <> 'done' and (locked_until is null or locked_until <= ${now}) returning *`.execute(
        trx,
      )
    ).rows[0];
    return row;
  });
  if (!leased) return false;
  const subject = JSON.parse(decryptSecret(leased.subject_enc!, deps.config.encryptionKey)) as Subject;
  try {
    if (leased.kind === 'erasure') await erase(deps, accountId, id, subject);
    else await buildExport(deps, accountId, id, subject);
    return true;
  } catch (err) {
    await deps.db
      .tenant(accountId, (trx) =>
        sql`update privacy_requests set locked_until = null, last_error = ${String(err instanceof Error ? err.message : err).slice(0, 500)} where account_id = ${accountId} and id = ${id}`.execute(
          trx,
        ),
      )
      .catch(() => undefined);
    deps.log(`Privacy request ${id} stopped; it will be carried on`, err);
    return false;
  }
}

async function erase(deps: Deps, accountId: string, id: string, subject: Subject): Promise<void> {
  for (const store of STORES) {
    for (;;) {
      const n = await deps.db.tenant(accountId, async (trx) => {
        const n = await store.erase(deps, trx, accountId, subject, deps.now(), ERASURE_BATCH);
        if (n) await countProgress(deps, trx, accountId, id, store.key, n);
        return n;
      });
      if (!n) break;
    }
  }
  await deps.db.tenant(accountId, async (trx) => {
    const held = (
      await sql<{
        id: string;
        since: Date;
      }>`select id::text, legal_hold_at as since from sig_requests where account_id = ${accountId} and legal_hold_at is not null
        and (phone_number = any(${subject.phones}::text[]) or customer_ref = any(${subject.refs}::text[])) order by legal_hold_at`.execute(
        trx,
      )
    ).rows.map((r) => ({ requestId: r.id, since: new Date(r.since).toISOString() }));
    const done = (
      await sql<RequestRow>`update privacy_requests set state = 'done', finished_at = ${deps.now()}, subject_enc = null, locked_until = null, last_error = null, held = ${JSON.stringify(held)}::jsonb
      where account_id = ${accountId} and id = ${id} and state <> 'done' returning *`.execute(trx)
    ).rows[0];
    if (!done) return;
    await audit(trx, accountId, null, {
      namespace: 'global',
      description: `Erased a caller's data (request ${id}): ${countsText(done.progress)}${held.length ? `; ${held.length} signed document${held.length === 1 ? '' : 's'} kept under a legal hold` : ''}`,
      event: 'privacy.erased',
    });
  });
}

export function countsText(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(', ') : 'nothing was held';
}

/** The receipt as a file: what was erased or exported, when and by whom; no personal data. */
export async function privacyReceipt(deps: Deps, accountId: string, id: string): Promise<{ filename: string; body: string }> {
  const request = await getPrivacyRequest(deps, accountId, id);
  const { downloadUrl: _link, ...receipt } = request;
  return {
    filename: `${request.kind}-receipt-${id}.json`,
    body: `${JSON.stringify({ receipt: 'Switchboard privacy request', accountId, ...receipt }, null, 2)}\n`,
  };
}

/** The `privacy.requests` job: carries on every open erasure whose lease has run out (a process that died, a database cut); exports are `privacy.exports`. */
export async function runOpenPrivacyRequests(deps: Deps): Promise<number> {
  const now = deps.now();
  const open = await deps.db.system((trx) =>
    sql<{
      id: string;
      account_id: string;
    }>`select id::text, account_id::text from privacy_requests where kind = 'erasure' and state <> 'done' and (locked_until is null or locked_until <= ${now}) order by created_at limit 50`.execute(
      trx,
    ),
  );
  let worked = 0;
  for (const r of open.rows) if (await workRequest(deps, r.account_id, r.id)) worked++;
  return worked;
}

// ---------------------------------------------------------------- legal holds

/** A signature request's legal hold (null when there is none). */
export async function getLegalHold(
  deps: Deps,
  accountId: string,
  requestId: string,
): Promise<{ requestId: string; legalHold: { reason: string; since: string; by: string } | null }> {
  const row = await deps.db.tenant(accountId, (trx) =>
    trx
      .selectFrom('sig_requests')
      .select(['id', 'legal_hold_reason', 'legal_hold_at', 'legal_hold_by'])
      .where('account_id', '=', accountId)
      .where('id', '=', requestId)
      .executeTakeFirst(),
  );
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such signature request.');
  return {
    requestId: row.id,
    legalHold: row.legal_hold_at
      ? { reason: row.legal_hold_reason ?? '', since: new Date(row.legal_hold_at).toISOString(), by: row.legal_hold_by ?? '' }
      : null,
  };
}

/** Puts a signature request under a legal hold (admins): its signed document survives erasure and retention. */
export async function setLegalHold(
  deps: Deps,
  accountId: string,
  requestId: string,
  reason: string,
  by: Requester,
): Promise<{ requestId: string; legalHold: { reason: string; since: string; by: string } | null }> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await trx
      .updateTable('sig_requests')
      .set({ legal_hold_reason: reason, legal_hold_at: now, legal_hold_by: by.name })
      .where('account_id', '=', accountId)
      .where('id', '=', requestId)
      .returning(['id', 'document_name'])
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such signature request.');
    await audit(trx, accountId, by.actor, {
      namespace: 'document-signature',
      description: `Put the signature request ${row.id} (${row.document_name}) under a legal hold: ${reason}`,
      event: 'document.legal-hold-set',
    });
    return { requestId: row.id, legalHold: { reason, since: now.toISOString(), by: by.name } };
  });
}

export async function releaseLegalHold(
  deps: Deps,
  accountId: string,
  requestId: string,
  by: Requester,
): Promise<{ requestId: string; legalHold: null }> {
  return deps.db.tenant(accountId, async (trx) => {
    const row = await trx
      .updateTable('sig_requests')
      .set({ legal_hold_reason: null, legal_hold_at: null, legal_hold_by: null })
      .where('account_id', '=', accountId)
      .where('id', '=', requestId)
      .returning(['id', 'document_name'])
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such signature request.');
    await audit(trx, accountId, by.actor, {
      namespace: 'document-signature',
      description: `Released the legal hold on the signature request ${row.id} (${row.document_name})`,
      event: 'document.legal-hold-released',
    });
    return { requestId: row.id, legalHold: null };
  });
}

/** A logging destination's opt-in to full phone numbers in what it is shipped (default: masked). */
export async function setLoggingFullNumbers(
  deps: Deps,
  accountId: string,
  destination: string,
  full: boolean,
  by: Requester,
): Promise<{ destination: string; fullPhoneNumbers: boolean }> {
  return deps.db.tenant(accountId, async (trx) => {
    const row = await trx
      .updateTable('logging_destinations')
      .set({ full_phone_numbers: full })
      .where('account_id', '=', accountId)
      .where('destination', '=', destination as never)
      .returning('destination')
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'This logging destination is not connected.');
    await audit(trx, accountId, by.actor, {
      namespace: 'global',
      description: `Log shipments to ${destination} now carry ${full ? 'full' : 'masked'} phone numbers`,
      event: 'logging.phone-numbers',
    });
    return { destination, fullPhoneNumbers: full };
  });
}
