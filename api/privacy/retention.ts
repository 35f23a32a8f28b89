import { sql, type RawBuilder } from 'kysely';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import { audit } from '../audit';
import { ApiError } from '../http/errors';
import { CALLER_RETENTION_KINDS, RETENTION_GRACE_DAYS, type AnyRetentionKind, type RetentionRule } from '../contract/privacy';
import { RETENTION_KINDS, type Retention } from '../contract/storage';
import { deleteExpiredSignedFiles } from '../apps/document-signature/retention';
import { redactDueSessions } from '../apps/identity-verification/service';
import { deleteMatching, ERASED, KEYSET_START, redactTasks, TASKS, type Keyset, type TaskRedaction } from './stores';
import { deleteFiles } from '../storage/files';
import { storedRetention } from '../storage/settings';
import { recordRule, stricter } from '../storage/retention-grace';
import type { Requester } from './service';

// Retention for every kind of caller data, per account, and the one redaction job that applies it
// (`privacy.retention`, which replaced `document-signature.retention` and `idv.redact-sessions`).
// A record past its period is redacted, not deleted where counts and billing need it: its
// personal fields and files go. Work is done in batches of short transactions that take their
// rows with `for update skip locked`; the job's lease runs it once across processes, and a run
// killed halfway leaves committed batches done: the next run picks up what is left.

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Rows per batch (one short transaction, one statement for a task kind). Measured on the scale
 * bench (docs/benchmarks.md#retention): larger batches cut the round trips but hold their row
 * locks longer; 1,000 kept the console's p99 near idle.
 */
export const RETENTION_BATCH = 1000;
/** Stored /api/v1 answers are only for replaying a retried call: a day, whatever the account says. */
const IDEMPOTENCY_KEEP_MS = DAY_MS;
/** An export's ZIP holds everything about a caller: it is deleted a week after it was made. */
export const EXPORT_KEEP_MS = 7 * DAY_MS;

/** A batch's outcome: how many records, and for a keyset walk where the next batch starts. */
type Batch = { n: number; last?: Keyset | null };

type KindWork = {
  count(trx: Trx, a: string, cutoff: Date): Promise<number>;
  redact(deps: Deps, trx: Trx, a: string, cutoff: Date, now: Date, batch: number, after: Keyset): Promise<Batch>;
};

const n = async (trx: Trx, q: RawBuilder<{ n: number }>) => Number((await q.execute(trx)).rows[0]?.n ?? 0);

// `created_at < cutoff` and the unredacted predicate first: the partial (account_id, created_at,
// id) indexes of migration 1310 answer the walk as an index range
const otpDue = (cutoff: Date) => sql<boolean>`phone_number <> ${ERASED} and created_at < ${cutoff} and status <> 'pending'`;
const passkeysDue = (cutoff: Date) =>
  sql<boolean>`phone_number <> ${ERASED} and created_at < ${cutoff} and status not in ('link_sent', 'started')`;
const eformDue = (cutoff: Date) =>
  sql<boolean>`phone_number <> ${ERASED} and created_at < ${cutoff} and status not in ('sent', 'opened')`;
// a payment's period runs from its last change: paid, refunded or disputed (each moves ended_at or
// paid_at), and never while a refund is in flight
const paymentsDue = (cutoff: Date) =>
  sql<boolean>`phone_number <> ${ERASED} and created_at < ${cutoff} and greatest(created_at, coalesce(paid_at, created_at), coalesce(ended_at, created_at)) < ${cutoff} and status not in ('requested', 'opened') and refunding_amount = 0`;
const eventsDue = (cutoff: Date) =>
  sql<boolean>`created_at < ${cutoff} and not exists (select 1 from webhook_deliveries d where d.event_id = webhook_events.id and d.state = 'pending')`;

/** A task kind: counted for the dry run, redacted a keyset batch at a time. */
const taskWork = (task: TaskRedaction, due: (cutoff: Date) => RawBuilder<boolean>): KindWork => ({
  count: (trx, a, c) =>
    n(trx, sql`select count(*)::int as n from ${sql.table(task.table)} where account_id = ${a} and ${due(c)}`),
  redact: (deps, trx, a, c, now, batch, after) => redactTasks(deps, trx, task, a, due(c), now, batch, after),
});

const terminalIdv = sql`status in ('approved', 'declined', 'expired', 'cancelled')`;

const WORK: Record<AnyRetentionKind, KindWork> = {
  'otp.tasks': {
    count: (trx, a, c) =>
      n(
        trx,
        sql`select (select count(*) from otp_verifications where account_id = ${a} and ${otpDue(c)}) + (select count(*) from otp_sends where account_id = ${a} and ts < ${c}) as n`,
      ),
    async redact(deps, trx, a, c, now, batch, after) {
      const tasks = await redactTasks(deps, trx, TASKS.otp, a, otpDue(c), now, batch, after);
      // the per-number send log once the tasks are done (no order to keep: a deleted row is gone)
      return {
        n: tasks.n + (await deleteMatching(trx, 'otp_sends', a, sql<boolean>`ts < ${c}`, batch - tasks.n)),
        last: tasks.last,
      };
    },
  },
  'passkeys.tasks': taskWork(TASKS.passkeys, passkeysDue),
  'eform.answers': taskWork(TASKS.eform, eformDue),
  'payments.records': taskWork(TASKS.payments, paymentsDue),
  'sms.messages': {
    count: (trx, a, c) =>
      n(
        trx,
        sql`select (select count(*) from dev_sms_outbox where account_id = ${a} and created_at < ${c}) + (select count(*) from sms_messages where account_id = ${a} and sent_at < ${c})
        + (select count(*) from sms_guard_sends where account_id = ${a} and ts < ${c}) as n`,
      ),
    async redact(_d, trx, a, c, _now, batch) {
      let done = await deleteMatching(trx, 'dev_sms_outbox', a, sql<boolean>`created_at < ${c}`, batch);
      done += await deleteMatching(trx, 'sms_messages', a, sql<boolean>`sent_at < ${c}`, batch - done);
      done += await deleteMatching(trx, 'sms_guard_sends', a, sql<boolean>`ts < ${c}`, batch - done);
      return { n: done };
    },
  },
  'webhooks.events': {
    count: (trx, a, c) => n(trx, sql`select count(*)::int as n from webhook_events where account_id = ${a} and ${eventsDue(c)}`),
    redact: async (_d, trx, a, c, _now, batch) => ({ n: await deleteMatching(trx, 'webhook_events', a, eventsDue(c), batch) }),
  },
  // the kinds Storage settings keep too: the apps' own redaction (their timeline entries and
  // webhooks per record), a batch at a time
  'idv.images': {
    count: (trx, a, c) =>
      n(
        trx,
        sql`select count(*)::int as n from idv_sessions where account_id = ${a} and ${terminalIdv} and images_redacted_at is null and created_at < ${c}`,
      ),
    redact: async (deps, trx, a, c, _now, batch) => ({ n: (await redactDueSessions(deps, trx, a, { images: c }, batch)).images }),
  },
  'idv.data': {
    count: (trx, a, c) =>
      n(
        trx,
        sql`select count(*)::int as n from idv_sessions where account_id = ${a} and ${terminalIdv} and data_redacted_at is null and created_at < ${c}`,
      ),
    redact: async (deps, trx, a, c, _now, batch) => ({ n: (await redactDueSessions(deps, trx, a, { data: c }, batch)).data }),
  },
  'document-signature.completed': {
    count: (trx, a, c) =>
      n(
        trx,
        sql`select count(*)::int as n from sig_requests where account_id = ${a} and status = 'completed' and files_deleted_at is null and legal_hold_at is null and completed_at < ${c}`,
      ),
    redact: async (deps, trx, a, c, _now, batch) => ({ n: await deleteExpiredSignedFiles(deps, trx, a, c, batch) }),
  },
};

type RuleRow = { kind: AnyRetentionKind; days: number | null; starts_at: Date; confirmed_by: string | null };

/**
 * The account's rules: stored ones, else the defaults from 30 days after the account was made.
 * The Storage kinds take their days from Storage settings; their first run from their rule row
 * when one was made (set or tightened since the grace came), else they are in force as before.
 */
async function rulesOf(trx: Trx, accountId: string): Promise<Map<AnyRetentionKind, RuleRow>> {
  const stored = (
    await sql<RuleRow>`select kind, days, starts_at, confirmed_by from retention_rules where account_id = ${accountId}`.execute(
      trx,
    )
  ).rows;
  const created =
    (await sql<{ created_at: Date }>`select created_at from accounts where id = ${accountId}`.execute(trx)).rows[0]?.created_at ??
    new Date(0);
  const rules = new Map<AnyRetentionKind, RuleRow>();
  for (const k of CALLER_RETENTION_KINDS) {
    const row = stored.find((r) => r.kind === k.kind);
    rules.set(
      k.kind,
      row ?? {
        kind: k.kind,
        days: k.defaultDays,
        starts_at: new Date(new Date(created).getTime() + RETENTION_GRACE_DAYS * DAY_MS),
        confirmed_by: null,
      },
    );
  }
  const storage = await retentionOf(trx, accountId);
  for (const k of RETENTION_KINDS) {
    const row = stored.find((r) => r.kind === k.kind);
    rules.set(k.kind, {
      kind: k.kind,
      days: storage[k.kind],
      starts_at: row?.starts_at ?? new Date(0),
      confirmed_by: row?.confirmed_by ?? null,
    });
  }
  return rules;
}

const retentionOf = async (trx: Trx, accountId: string): Promise<Retention> =>
  storedRetention(
    (
      await sql<{
        retention: Record<string, unknown>;
      }>`select retention from storage_settings where account_id = ${accountId}`.execute(trx)
    ).rows[0]?.retention,
  );

const cutoffOf = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

const labelOf = (kind: AnyRetentionKind) =>
  CALLER_RETENTION_KINDS.find((k) => k.kind === kind)?.label ?? RETENTION_KINDS.find((k) => k.kind === kind)!.label;

/** Every kind with its days, its first run and the dry run's count: the Retention card of Customer data. */
export async function retentionRules(deps: Deps, accountId: string): Promise<RetentionRule[]> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const rules = await rulesOf(trx, accountId);
    const answer: RetentionRule[] = [];
    const kinds = [
      ...CALLER_RETENTION_KINDS.map((k) => ({
        kind: k.kind,
        app: k.app,
        label: k.label,
        covers: k.covers,
        defaultDays: k.defaultDays as number | null,
        setOnStorage: false,
      })),
      ...RETENTION_KINDS.map((k) => ({
        kind: k.kind,
        app: k.app,
        label: k.label,
        covers: k.hint,
        defaultDays: null,
        setOnStorage: true,
      })),
    ];
    for (const k of kinds) {
      const rule = rules.get(k.kind)!;
      const wouldRedact = rule.days == null ? 0 : await WORK[k.kind].count(trx, accountId, cutoffOf(now, rule.days));
      answer.push({
        ...k,
        days: rule.days,
        startsAt: new Date(rule.starts_at).toISOString(),
        confirmedBy: rule.confirmed_by,
        wouldRedact,
      });
    }
    return answer;
  });
}

/**
 * Sets a kind's days (null keeps). A kind that was off, or a shorter period than before, starts
 * 30 days from now, with the dry run's count shown meanwhile: nothing is redacted by surprise.
 * The Storage kinds keep their days in Storage settings, so that page and this card agree.
 */
export async function setRetentionRule(
  deps: Deps,
  accountId: string,
  kind: AnyRetentionKind,
  days: number | null,
  by: Requester,
): Promise<RetentionRule[]> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const before = (await rulesOf(trx, accountId)).get(kind)!;
    if (RETENTION_KINDS.some((k) => k.kind === kind)) {
      if (days == null)
        await sql`update storage_settings set retention = retention - ${kind}::text, updated_at = ${now} where account_id = ${accountId}`.execute(
          trx,
        );
      else
        await sql`insert into storage_settings (account_id, retention, updated_at) values (${accountId}, jsonb_build_object(${kind}::text, ${days}::int), ${now})
          on conflict (account_id) do update set retention = storage_settings.retention || excluded.retention, updated_at = excluded.updated_at`.execute(
          trx,
        );
    }
    const startsAt = await recordRule(
      trx,
      accountId,
      kind,
      { before: before.days, after: days, keptStartsAt: new Date(before.starts_at), keptConfirmedBy: before.confirmed_by },
      now,
    );
    const grace = stricter(before.days, days);
    await audit(trx, accountId, by.actor, {
      namespace: 'global',
      description: `Set retention of ${labelOf(kind)} to ${days == null ? 'keep' : `${days} days`}${grace ? `; first run from ${startsAt.toISOString().slice(0, 10)}` : ''}`,
      event: 'privacy.retention-set',
    });
  });
  return retentionRules(deps, accountId);
}

/** An admin confirms a rule's first run now, having seen the dry run's count. */
export async function confirmRetentionRule(
  deps: Deps,
  accountId: string,
  kind: AnyRetentionKind,
  by: Requester,
): Promise<RetentionRule[]> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const rule = (await rulesOf(trx, accountId)).get(kind)!;
    if (rule.days == null) throw new ApiError(409, 'RETENTION_OFF', 'This kind is kept: set a period first.');
    await sql`insert into retention_rules (account_id, kind, days, starts_at, confirmed_by, updated_at) values (${accountId}, ${kind}, ${rule.days}, ${now}, ${by.name}, ${now})
      on conflict (account_id, kind) do update set starts_at = excluded.starts_at, confirmed_by = excluded.confirmed_by, updated_at = excluded.updated_at`.execute(
      trx,
    );
    await audit(trx, accountId, by.actor, {
      namespace: 'global',
      description: `Confirmed retention of ${labelOf(kind)} (${rule.days} days) to start now`,
      event: 'privacy.retention-confirmed',
    });
  });
  return retentionRules(deps, accountId);
}

/**
 * One run of the redaction job for every account: each kind whose rule is in force, a batch at a
 * time, then one audit entry per account with the counts. Answers the counts by account.
 */
export async function runRetention(deps: Deps, options: { batch?: number } = {}): Promise<Map<string, Record<string, number>>> {
  const batch = options.batch ?? RETENTION_BATCH;
  const now = deps.now();
  const accounts = (await deps.db.system((trx) => sql<{ id: string }>`select id::text from accounts order by id`.execute(trx)))
    .rows;
  const result = new Map<string, Record<string, number>>();
  for (const { id: accountId } of accounts) {
    const rules = await deps.db.tenant(accountId, (trx) => rulesOf(trx, accountId));
    const counts: Record<string, number> = {};
    for (const [kind, rule] of rules) {
      if (rule.days == null || new Date(rule.starts_at) > now) continue;
      const cutoff = cutoffOf(now, rule.days);
      // each batch its own short transaction; a kill loses at most the batch in flight, and the
      // next run walks again from the start (what was redacted no longer matches)
      for (let after = KEYSET_START; ; ) {
        const done = await deps.db.tenant(accountId, (trx) => WORK[kind].redact(deps, trx, accountId, cutoff, now, batch, after));
        if (done.n) counts[kind] = (counts[kind] ?? 0) + done.n;
        if (done.last) after = done.last;
        // a short batch has reached the end (rows another worker holds are left to the next run)
        if (done.n < batch) break;
      }
    }
    const idempotency = await deps.db.tenant(accountId, (trx) =>
      sql`delete from api_idempotency where account_id = ${accountId} and created_at < ${new Date(now.getTime() - IDEMPOTENCY_KEEP_MS)} returning 1`.execute(
        trx,
      ),
    );
    if (idempotency.rows.length) counts['api.idempotency'] = idempotency.rows.length;
    const exports = await deps.db.tenant(accountId, async (trx) => {
      const old = (
        await sql<{
          id: string;
          file_id: string;
        }>`select id::text, file_id::text from privacy_requests where account_id = ${accountId} and kind = 'export' and file_id is not null
        and finished_at < ${new Date(now.getTime() - EXPORT_KEEP_MS)} limit ${batch} for update skip locked`.execute(trx)
      ).rows;
      if (!old.length) return 0;
      await deleteFiles(
        deps,
        trx,
        accountId,
        old.map((r) => r.file_id),
      );
      await sql`update privacy_requests set file_id = null where account_id = ${accountId} and id = any(${old.map((r) => r.id)}::uuid[])`.execute(
        trx,
      );
      return old.length;
    });
    if (exports) counts['privacy.exports'] = exports;
    if (Object.keys(counts).length) {
      await deps.db.tenant(accountId, (trx) =>
        audit(trx, accountId, null, {
          namespace: 'global',
          description: `Retention redacted caller data: ${Object.entries(counts)
            .map(([k, c]) => `${k} ${c}`)
            .join(', ')}`,
          event: 'privacy.retention-run',
        }),
      );
      result.set(accountId, counts);
    }
  }
  return result;
}
