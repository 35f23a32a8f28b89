import { sql, type RawBuilder } from 'kysely';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import { audit } from '../audit';
import { ApiError } from '../http/errors';
import { CALLER_RETENTION_KINDS, RETENTION_GRACE_DAYS, type CallerRetentionKind, type RetentionRule } from '../contract/privacy';
import { RETENTION_KINDS, type RetentionKind } from '../contract/storage';
import { deleteExpiredSignedFiles } from '../apps/document-signature/retention';
import { redactDueSessions } from '../apps/identity-verification/service';
import { ERASED, REDACT, take } from './stores';
import { deleteFile } from '../storage/files';
import type { Requester } from './service';

// Retention for every kind of caller data, per account, and the one redaction job that applies it
// (`privacy.retention`, which replaced `document-signature.retention` and `idv.redact-sessions`).
// A record past its period is redacted, not deleted where counts and billing need it: its
// personal fields and files go. Work is done in batches of short transactions that take their
// rows with `for update skip locked`; the job's lease runs it once across processes, and a run
// killed halfway leaves committed batches done: the next run picks up what is left.

const DAY_MS = 24 * 60 * 60 * 1000;
export const RETENTION_BATCH = 500;
/** Stored /api/v1 answers are only for replaying a retried call: a day, whatever the account says. */
const IDEMPOTENCY_KEEP_MS = DAY_MS;
/** An export's ZIP holds everything about a caller: it is deleted a week after it was made. */
export const EXPORT_KEEP_MS = 7 * DAY_MS;

type KindWork = {
  count(trx: Trx, a: string, cutoff: Date): Promise<number>;
  redact(deps: Deps, trx: Trx, a: string, cutoff: Date, now: Date, batch: number): Promise<number>;
};

const n = async (trx: Trx, q: RawBuilder<{ n: number }>) => Number((await q.execute(trx)).rows[0]?.n ?? 0);

async function deleteOld(trx: Trx, table: string, a: string, where: RawBuilder<boolean>, batch: number, id = 'id'): Promise<number> {
  const ids = await take(trx, table, a, where, batch, id);
  if (!ids.length) return 0;
  await sql`delete from ${sql.table(table)} where account_id = ${a} and ${sql.ref(id)}::text = any(${ids}::text[])`.execute(trx);
  return ids.length;
}

const otpDue = (cutoff: Date) => sql<boolean>`created_at < ${cutoff} and phone_number <> ${ERASED} and status <> 'pending'`;
const passkeysDue = (cutoff: Date) => sql<boolean>`created_at < ${cutoff} and phone_number <> ${ERASED} and status not in ('link_sent', 'started')`;
const eformDue = (cutoff: Date) => sql<boolean>`created_at < ${cutoff} and phone_number <> ${ERASED} and status not in ('sent', 'opened')`;
// a payment's period runs from its last change: paid, refunded or disputed (each moves ended_at or
// paid_at), and never while a refund is in flight
const paymentsDue = (cutoff: Date) =>
  sql<boolean>`greatest(created_at, coalesce(paid_at, created_at), coalesce(ended_at, created_at)) < ${cutoff} and phone_number <> ${ERASED} and status not in ('requested', 'opened') and refunding_amount = 0`;
const eventsDue = (cutoff: Date) => sql<boolean>`created_at < ${cutoff} and not exists (select 1 from webhook_deliveries d where d.event_id = webhook_events.id and d.state = 'pending')`;

const WORK: Record<CallerRetentionKind, KindWork> = {
  'otp.tasks': {
    count: (trx, a, c) => n(trx, sql`select count(*)::int as n from otp_verifications where account_id = ${a} and ${otpDue(c)}`),
    async redact(_d, trx, a, c, now, batch) {
      const done = await REDACT.otp(trx, a, await take(trx, 'otp_verifications', a, otpDue(c), batch), now);
      return done + (await deleteOld(trx, 'otp_sends', a, sql<boolean>`ts < ${c}`, batch - done, 'ctid'));
    },
  },
  'passkeys.tasks': {
    count: (trx, a, c) => n(trx, sql`select count(*)::int as n from passkey_tasks where account_id = ${a} and ${passkeysDue(c)}`),
    redact: async (_d, trx, a, c, now, batch) => REDACT.passkeys(trx, a, await take(trx, 'passkey_tasks', a, passkeysDue(c), batch), now),
  },
  'eform.answers': {
    count: (trx, a, c) => n(trx, sql`select count(*)::int as n from eform_requests where account_id = ${a} and ${eformDue(c)}`),
    redact: async (deps, trx, a, c, now, batch) => REDACT.eform(deps, trx, a, await take(trx, 'eform_requests', a, eformDue(c), batch), now),
  },
  'payments.records': {
    count: (trx, a, c) => n(trx, sql`select count(*)::int as n from payments where account_id = ${a} and ${paymentsDue(c)}`),
    redact: async (_d, trx, a, c, now, batch) => REDACT.payments(trx, a, await take(trx, 'payments', a, paymentsDue(c), batch), now),
  },
  'sms.messages': {
    count: (trx, a, c) =>
      n(trx, sql`select (select count(*) from dev_sms_outbox where account_id = ${a} and created_at < ${c}) + (select count(*) from sms_messages where account_id = ${a} and sent_at < ${c})
        + (select count(*) from sms_guard_sends where account_id = ${a} and ts < ${c}) as n`),
    async redact(_d, trx, a, c, _now, batch) {
      let done = await deleteOld(trx, 'dev_sms_outbox', a, sql<boolean>`created_at < ${c}`, batch);
      if (done < batch) done += await deleteOld(trx, 'sms_messages', a, sql<boolean>`sent_at < ${c}`, batch - done);
      if (done < batch) done += await deleteOld(trx, 'sms_guard_sends', a, sql<boolean>`ts < ${c}`, batch - done);
      return done;
    },
  },
  'webhooks.events': {
    count: (trx, a, c) => n(trx, sql`select count(*)::int as n from webhook_events where account_id = ${a} and ${eventsDue(c)}`),
    redact: (_d, trx, a, c, _now, batch) => deleteOld(trx, 'webhook_events', a, eventsDue(c), batch),
  },
};

type RuleRow = { kind: string; days: number | null; starts_at: Date; confirmed_by: string | null };

/** The account's rules: stored ones, else the defaults from 30 days after the account was made. */
async function rulesOf(trx: Trx, accountId: string): Promise<Map<CallerRetentionKind, RuleRow>> {
  const stored = (await sql<RuleRow>`select kind, days, starts_at, confirmed_by from retention_rules where account_id = ${accountId}`.execute(trx)).rows;
  const created = (await sql<{ created_at: Date }>`select created_at from accounts where id = ${accountId}`.execute(trx)).rows[0]?.created_at ?? new Date(0);
  const rules = new Map<CallerRetentionKind, RuleRow>();
  for (const k of CALLER_RETENTION_KINDS) {
    const row = stored.find((r) => r.kind === k.kind);
    rules.set(k.kind, row ?? { kind: k.kind, days: k.defaultDays, starts_at: new Date(new Date(created).getTime() + RETENTION_GRACE_DAYS * DAY_MS), confirmed_by: null });
  }
  return rules;
}

const cutoffOf = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** Every kind with its days, its first run and the dry run's count: the Retention card of Customer data. */
export async function retentionRules(deps: Deps, accountId: string): Promise<RetentionRule[]> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const rules = await rulesOf(trx, accountId);
    const answer: RetentionRule[] = [];
    for (const k of CALLER_RETENTION_KINDS) {
      const rule = rules.get(k.kind)!;
      const wouldRedact = rule.days == null ? 0 : await WORK[k.kind].count(trx, accountId, cutoffOf(now, rule.days));
      answer.push({ kind: k.kind, app: k.app, label: k.label, covers: k.covers, days: rule.days, defaultDays: k.defaultDays, startsAt: new Date(rule.starts_at).toISOString(), confirmedBy: rule.confirmed_by, wouldRedact, setOnStorage: false });
    }
    // the kinds Storage settings keep (Identity Verification, Document Signature): in the same list, set there
    const storage = (await sql<{ retention: Record<string, number> }>`select retention from storage_settings where account_id = ${accountId}`.execute(trx)).rows[0]?.retention ?? {};
    for (const k of RETENTION_KINDS) {
      answer.push({ kind: k.kind, app: k.app, label: k.label, covers: k.hint, days: storage[k.kind] ?? null, defaultDays: null, startsAt: new Date(0).toISOString(), confirmedBy: null, wouldRedact: 0, setOnStorage: true });
    }
    return answer;
  });
}

/**
 * Sets a kind's days (null keeps). A kind that was off, or a shorter period than before, starts
 * 30 days from now, with the dry run's count shown meanwhile: nothing is redacted by surprise.
 */
export async function setRetentionRule(deps: Deps, accountId: string, kind: CallerRetentionKind | RetentionKind, days: number | null, by: Requester): Promise<RetentionRule[]> {
  const now = deps.now();
  const storageKind = RETENTION_KINDS.find((k) => k.kind === kind);
  if (storageKind) {
    // the Storage settings' own column, so the Storage page and its redaction read the same days
    await deps.db.tenant(accountId, async (trx) => {
      if (days == null) await sql`update storage_settings set retention = retention - ${kind}::text, updated_at = ${now} where account_id = ${accountId}`.execute(trx);
      else
        await sql`insert into storage_settings (account_id, retention, updated_at) values (${accountId}, jsonb_build_object(${kind}::text, ${days}::int), ${now})
          on conflict (account_id) do update set retention = storage_settings.retention || excluded.retention, updated_at = excluded.updated_at`.execute(trx);
      await audit(trx, accountId, by.actor, { namespace: 'global', description: `Set retention of ${storageKind.label} to ${days == null ? 'keep' : `${days} days`}`, event: 'privacy.retention-set' });
    });
    return retentionRules(deps, accountId);
  }
  await deps.db.tenant(accountId, async (trx) => {
    const before = (await rulesOf(trx, accountId)).get(kind as CallerRetentionKind)!;
    const stricter = days != null && (before.days == null || days < before.days);
    const startsAt = stricter ? new Date(now.getTime() + RETENTION_GRACE_DAYS * DAY_MS) : before.starts_at;
    await sql`insert into retention_rules (account_id, kind, days, starts_at, confirmed_by, updated_at) values (${accountId}, ${kind}, ${days}, ${startsAt}, ${stricter ? null : before.confirmed_by}, ${now})
      on conflict (account_id, kind) do update set days = excluded.days, starts_at = excluded.starts_at, confirmed_by = excluded.confirmed_by, updated_at = excluded.updated_at`.execute(trx);
    const label = CALLER_RETENTION_KINDS.find((k) => k.kind === kind)!.label;
    await audit(trx, accountId, by.actor, { namespace: 'global', description: `Set retention of ${label} to ${days == null ? 'keep' : `${days} days`}${stricter ? `; first run from ${startsAt.toISOString().slice(0, 10)}` : ''}`, event: 'privacy.retention-set' });
  });
  return retentionRules(deps, accountId);
}

/** An admin confirms a rule's first run now, having seen the dry run's count. */
export async function confirmRetentionRule(deps: Deps, accountId: string, kind: CallerRetentionKind, by: Requester): Promise<RetentionRule[]> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const rule = (await rulesOf(trx, accountId)).get(kind)!;
    if (rule.days == null) throw new ApiError(409, 'RETENTION_OFF', 'This kind is kept: set a period first.');
    await sql`insert into retention_rules (account_id, kind, days, starts_at, confirmed_by, updated_at) values (${accountId}, ${kind}, ${rule.days}, ${now}, ${by.name}, ${now})
      on conflict (account_id, kind) do update set starts_at = excluded.starts_at, confirmed_by = excluded.confirmed_by, updated_at = excluded.updated_at`.execute(trx);
    const label = CALLER_RETENTION_KINDS.find((k) => k.kind === kind)!.label;
    await audit(trx, accountId, by.actor, { namespace: 'global', description: `Confirmed retention of ${label} (${rule.days} days) to start now`, event: 'privacy.retention-confirmed' });
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
  // the kinds Storage settings keep (Identity Verification, Document Signature): counted into the
  // same one audit entry per account and run, not one entry per record
  const storageCounts = new Map<string, Record<string, number>>();
  const tally = (accountId: string, kind: string, count: number) => {
    const c = storageCounts.get(accountId) ?? {};
    c[kind] = (c[kind] ?? 0) + count;
    storageCounts.set(accountId, c);
  };
  while ((await redactDueSessions(deps, batch, tally)) >= batch);
  while ((await deleteExpiredSignedFiles(deps, batch, tally)) >= batch);
  const accounts = (await deps.db.system((trx) => sql<{ id: string }>`select id::text from accounts order by id`.execute(trx))).rows;
  const result = new Map<string, Record<string, number>>();
  for (const { id: accountId } of accounts) {
    const rules = await deps.db.tenant(accountId, (trx) => rulesOf(trx, accountId));
    const counts: Record<string, number> = { ...storageCounts.get(accountId) };
    for (const [kind, rule] of rules) {
      if (rule.days == null || new Date(rule.starts_at) > now) continue;
      const cutoff = cutoffOf(now, rule.days);
      for (;;) {
        const done = await deps.db.tenant(accountId, (trx) => WORK[kind].redact(deps, trx, accountId, cutoff, now, batch));
        if (done) counts[kind] = (counts[kind] ?? 0) + done;
        if (done < batch) break;
      }
    }
    const idempotency = await deps.db.tenant(accountId, (trx) => sql`delete from api_idempotency where account_id = ${accountId} and created_at < ${new Date(now.getTime() - IDEMPOTENCY_KEEP_MS)} returning 1`.execute(trx));
    if (idempotency.rows.length) counts['api.idempotency'] = idempotency.rows.length;
    const exports = await deps.db.tenant(accountId, async (trx) => {
      const old = (await sql<{ id: string; file_id: string }>`select id::text, file_id::text from privacy_requests where account_id = ${accountId} and kind = 'export' and file_id is not null
        and finished_at < ${new Date(now.getTime() - EXPORT_KEEP_MS)} limit ${batch} for update skip locked`.execute(trx)).rows;
      for (const r of old) {
        await deleteFile(deps, trx, accountId, r.file_id);
        await sql`update privacy_requests set file_id = null where id = ${r.id}`.execute(trx);
      }
      return old.length;
    });
    if (exports) counts['privacy.exports'] = exports;
    if (Object.keys(counts).length) {
      await deps.db.tenant(accountId, (trx) =>
        audit(trx, accountId, null, { namespace: 'global', description: `Retention redacted caller data: ${Object.entries(counts).map(([k, c]) => `${k} ${c}`).join(', ')}`, event: 'privacy.retention-run' }),
      );
      result.set(accountId, counts);
    }
  }
  return result;
}
