import { sql, type RawBuilder } from 'kysely';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import type { AppId } from '../contract/apps';
import type { PrivacyStoreKey } from '../contract/privacy';
import { deleteFiles } from '../storage/files';
import { deleteTwilioMessage } from '../integrations/twilio';
import { revokeSignerCopies } from '../apps/document-signature/signer-copy';

// Every place a caller's personal data is kept, once: how to count it (search), read it (export)
// and redact it (erasure), a batch at a time. A redacted record stays (the task lists, counts and
// billing still add up); its personal fields and files go. Each batch is short and takes its rows
// with `for update skip locked`, so an erasure never holds a long lock and a batch that dies with
// its process or connection is simply done again: a redacted row no longer matches the caller.

/** Who a request is about: the numbers and references it covers, and the names seen on them (quoted in texts). */
export type Subject = { phones: string[]; refs: string[]; names: string[] };

/** What a redacted text field says in place of the caller's data. */
export const ERASED = '[erased]';

export type ExportedFile = { id: string; name: string };

export type Store = {
  key: PrivacyStoreKey;
  app: AppId | 'platform';
  /** what the store holds about a caller, for the search answer and the docs */
  label: string;
  count(trx: Trx, accountId: string, s: Subject): Promise<number>;
  /** the records, as the caller's export shows them */
  rows(trx: Trx, accountId: string, s: Subject): Promise<Record<string, unknown>[]>;
  files?(trx: Trx, accountId: string, s: Subject): Promise<ExportedFile[]>;
  /** redacts up to `batch` matching records; answers how many (0: nothing left) */
  erase(deps: Deps, trx: Trx, accountId: string, s: Subject, now: Date, batch: number): Promise<number>;
};

const phoneOrRef = (s: Subject, phone = 'phone_number', ref = 'customer_ref'): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(phone)} = any(${s.phones}::text[]) or ${sql.ref(ref)} = any(${s.refs}::text[]))`;

async function countOf(trx: Trx, query: RawBuilder<{ n: number }>): Promise<number> {
  return Number((await query.execute(trx)).rows[0]?.n ?? 0);
}

async function rowsOf(trx: Trx, query: RawBuilder<Record<string, unknown>>): Promise<Record<string, unknown>[]> {
  return (await query.execute(trx)).rows;
}

/** Ids of up to `batch` rows of `table` matching `where`, locked for this transaction (others skip them). */
export async function take(
  trx: Trx,
  table: string,
  accountId: string,
  where: RawBuilder<boolean>,
  batch: number,
  id = 'id',
): Promise<string[]> {
  const rows = await sql<{
    id: string;
  }>`select ${sql.ref(id)}::text as id from ${sql.table(table)} where account_id = ${accountId} and ${where} limit ${batch} for update skip locked`.execute(
    trx,
  );
  return rows.rows.map((r) => r.id);
}

/** A text field that may quote the caller: every needle (number, reference, name) replaced. */
function textStore(o: {
  key: PrivacyStoreKey;
  label: string;
  table: string;
  id: string;
  columns: string[];
  json?: boolean;
  select: string;
}): Store {
  const matches = (s: Subject): RawBuilder<boolean> => {
    const needles = needlesOf(s, o.json);
    if (!needles.length) return sql<boolean>`false`;
    return sql<boolean>`(${sql.join(
      o.columns.map((c) => sql`${sql.raw(c)}::text like any(${needles.map(likeNeedle)}::text[])`),
      sql` or `,
    )})`;
  };
  return {
    key: o.key,
    app: 'platform',
    label: o.label,
    count: (trx, accountId, s) =>
      countOf(
        trx,
        sql<{
          n: number;
        }>`select count(*)::int as n from ${sql.table(o.table)} where account_id = ${accountId} and ${matches(s)}`,
      ),
    rows: (trx, accountId, s) =>
      rowsOf(
        trx,
        sql<
          Record<string, unknown>
        >`select ${sql.raw(o.select)} from ${sql.table(o.table)} where account_id = ${accountId} and ${matches(s)} limit 10000`,
      ),
    async erase(_deps, trx, accountId, s, _now, batch) {
      const ids = await take(trx, o.table, accountId, matches(s), batch, o.id);
      if (!ids.length) return 0;
      for (const column of o.columns) {
        let value: RawBuilder<unknown> = sql`${sql.ref(column)}::text`;
        for (const needle of needlesOf(s, o.json)) value = sql`replace(${value}, ${needle}, ${ERASED})`;
        await sql`update ${sql.table(o.table)} set ${sql.ref(column)} = ${o.json ? sql`(${value})::jsonb` : value}
          where account_id = ${accountId} and ${sql.ref(o.id)}::text = any(${ids}::text[])`.execute(trx);
      }
      return ids.length;
    },
  };
}

/** Needles as they appear in the text (inside JSON, with its escapes); names under 3 characters would match too much. */
function needlesOf(s: Subject, json = false): string[] {
  const all = [...s.phones, ...s.refs, ...s.names.filter((n) => n.length >= 3)].filter((n) => n && n !== ERASED);
  return [...new Set(json ? all.map((n) => JSON.stringify(n).slice(1, -1)) : all)];
}

const likeNeedle = (n: string) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An app's task table, and what its personal fields become when the task is redacted. */
export type TaskRedaction = { table: string; set: RawBuilder<unknown>; submissions?: true };

/** The four task tables a caller's number and reference sit on: shared by erasure (by caller) and retention (by age). */
export const TASKS = {
  otp: { table: 'otp_verifications', set: sql`phone_number = ${ERASED}, customer_ref = null` },
  passkeys: { table: 'passkey_tasks', set: sql`phone_number = ${ERASED}, customer_ref = ${ERASED}, display_name = null` },
  // the answers, uploads and prefilled values go with the number
  eform: {
    table: 'eform_requests',
    set: sql`phone_number = ${ERASED}, customer_ref = null, prefill = '{}'::jsonb`,
    submissions: true,
  },
  payments: { table: 'payments', set: sql`phone_number = ${ERASED}, customer_ref = null, checkout_url = null` },
} satisfies Record<string, TaskRedaction>;

/** Where a keyset walk stands: the last (created_at, id) a batch took. */
export type Keyset = { at: Date | string; id: string };
export const KEYSET_START: Keyset = { at: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

/**
 * Redacts up to `batch` tasks of `where`, in one statement: the rows are taken with `for update
 * skip locked`, their personal fields cleared, their timeline's address and browser dropped and
 * their links revoked together, so a batch is one round trip however many rows it holds (files,
 * when the app keeps some, are then deleted in bulk in the same transaction). With `after`, the
 * rows are walked in (created_at, id) order from there, so a run never reads again what an
 * earlier batch left behind as dead index entries; answers the last key taken.
 */
export async function redactTasks(
  deps: Deps,
  trx: Trx,
  t: TaskRedaction,
  a: string,
  where: RawBuilder<boolean>,
  now: Date,
  batch: number,
  after?: Keyset,
): Promise<{ n: number; last: Keyset | null }> {
  const table = sql.table(t.table);
  const walk = after ? sql`and (created_at, id) > (${after.at}::timestamptz, ${after.id}::uuid) order by created_at, id` : sql``;
  const submissions = t.submissions
    ? sql`, sub as (update eform_submissions s set answers = '{}'::jsonb, answers_text = '', file_ids = '{}' from due where s.account_id = ${a} and s.request_id = due.id and (s.answers <> '{}'::jsonb or s.file_ids <> '{}'))`
    : sql``;
  // the main select reads the statement's snapshot: the submissions' file ids as they were
  const files = t.submissions
    ? sql`(select coalesce(array_agg(f::text), '{}') from eform_submissions s cross join unnest(s.file_ids) f where s.account_id = ${a} and s.request_id in (select id from due))`
    : sql`'{}'::text[]`;
  const row = (
    await sql<{ n: number; last_at: Date | null; last_id: string | null; files: string[] }>`
      with due as (select id, created_at from ${table} where account_id = ${a} and ${where} ${walk} limit ${batch} for update skip locked),
      red as (update ${table} t set ${t.set} from due where t.account_id = ${a} and t.id = due.id returning t.id)${submissions},
      ev as (update task_events e set ip = null, user_agent = null from due where e.account_id = ${a} and e.task_id = due.id and (e.ip is not null or e.user_agent is not null)),
      lt as (update link_tokens l set revoked_at = ${now} from due where l.account_id = ${a} and l.task_id = due.id and l.revoked_at is null)
      select (select count(*) from red)::int as n, last.created_at as last_at, last.id::text as last_id, ${files} as files
      from (select 1) one left join lateral (select created_at, id from due order by created_at desc, id desc limit 1) last on true`.execute(
      trx,
    )
  ).rows[0]!;
  await deleteFiles(deps, trx, a, row.files);
  return { n: Number(row.n), last: row.last_id ? { at: row.last_at!, id: row.last_id } : null };
}

/** What is left of tasks once their caller is erased: no timeline entry keeps the caller's address or browser, and no link opens. */
async function forgetTasks(trx: Trx, accountId: string, ids: string[], now: Date): Promise<void> {
  if (!ids.length) return;
  await sql`update task_events set ip = null, user_agent = null where account_id = ${accountId} and task_id = any(${ids}::uuid[]) and (ip is not null or user_agent is not null)`.execute(
    trx,
  );
  await sql`update link_tokens set revoked_at = ${now} where account_id = ${accountId} and task_id = any(${ids}::uuid[]) and revoked_at is null`.execute(
    trx,
  );
}

/** Deletes up to `batch` rows of `where` in one statement (taken with skip locked, by ctid); answers how many. */
export async function deleteMatching(
  trx: Trx,
  table: string,
  accountId: string,
  where: RawBuilder<boolean>,
  batch: number,
): Promise<number> {
  if (batch <= 0) return 0;
  const t = sql.table(table);
  const r =
    await sql`delete from ${t} where ctid = any(array(select ctid from ${t} where account_id = ${accountId} and ${where} limit ${batch} for update skip locked))`.execute(
      trx,
    );
  return Number(r.numAffectedRows ?? 0);
}

/** A store whose rows are only the caller's: erasure deletes them. */
function deletingStore(o: {
  key: PrivacyStoreKey;
  app: AppId | 'platform';
  label: string;
  table: string;
  match: (s: Subject) => RawBuilder<boolean>;
  select: string;
  order: string;
}): Store {
  const table = sql.table(o.table);
  return {
    key: o.key,
    app: o.app,
    label: o.label,
    count: (trx, a, s) => countOf(trx, sql`select count(*)::int as n from ${table} where account_id = ${a} and ${o.match(s)}`),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select ${sql.raw(o.select)} from ${table} where account_id = ${a} and ${o.match(s)} order by ${sql.ref(o.order)}`,
      ),
    erase: (_d, trx, a, s, _now, batch) => deleteMatching(trx, o.table, a, o.match(s), batch),
  };
}

/** A task table's store: counted, read and erased by the caller's number or reference. */
function taskStore(o: {
  key: PrivacyStoreKey;
  app: AppId;
  label: string;
  task: TaskRedaction;
  select: string;
  from: string;
  files?: Store['files'];
}): Store {
  const table = sql.raw(o.from);
  return {
    key: o.key,
    app: o.app,
    label: o.label,
    count: (trx, a, s) =>
      countOf(trx, sql`select count(*)::int as n from ${sql.table(o.task.table)} where account_id = ${a} and ${phoneOrRef(s)}`),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select ${sql.raw(o.select)} from ${table} where r.account_id = ${a} and ${phoneOrRef(s, 'r.phone_number', 'r.customer_ref')} order by r.created_at`,
      ),
    files: o.files,
    erase: async (deps, trx, a, s, now, batch) => (await redactTasks(deps, trx, o.task, a, phoneOrRef(s), now, batch)).n,
  };
}

export const STORES: Store[] = [
  taskStore({
    key: 'otp.verifications',
    app: 'one-time-passcode',
    label: 'Passcode verifications: phone number, customer reference, times and outcome',
    task: TASKS.otp,
    from: 'otp_verifications r',
    select: 'r.id, r.phone_number, r.customer_ref, r.status, r.created_at, r.verified_at, r.ended_at',
  }),
  deletingStore({
    key: 'otp.sends',
    app: 'one-time-passcode',
    label: 'Passcode sends per number (for the send limit)',
    table: 'otp_sends',
    match: (s) => sql<boolean>`phone_number = any(${s.phones}::text[])`,
    select: 'phone_number, ts',
    order: 'ts',
  }),
  taskStore({
    key: 'passkeys.tasks',
    app: 'passkeys',
    label: 'Passkey enrolments and verifications: phone number, customer reference, display name',
    task: TASKS.passkeys,
    from: 'passkey_tasks r',
    select: 'r.id, r.kind, r.phone_number, r.customer_ref, r.display_name, r.status, r.created_at, r.ended_at',
  }),
  // a passkey is only the caller's: nothing to keep once they are forgotten
  deletingStore({
    key: 'passkeys.credentials',
    app: 'passkeys',
    label: "The caller's passkeys: customer reference, display name, public key",
    table: 'passkey_credentials',
    match: (s) => sql<boolean>`customer_ref = any(${s.refs}::text[])`,
    select: 'id, customer_ref, display_name, aaguid, created_at, last_used_at, revoked_at',
    order: 'created_at',
  }),
  {
    key: 'idv.sessions',
    app: 'identity-verification',
    label: 'Identity verifications: phone number, customer reference, expected and extracted identity data, document images',
    count: (trx, a, s) =>
      countOf(trx, sql`select count(*)::int as n from idv_sessions where account_id = ${a} and ${phoneOrRef(s)}`),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select id, phone_number, customer_ref, status, document_type, expected_name, expected_date_of_birth, extracted, document_number, decision, decision_reason, created_at, decided_at from idv_sessions where account_id = ${a} and ${phoneOrRef(s)} order by created_at`,
      ),
    files: async (trx, a, s) =>
      (
        await sql<{
          file_id: string;
          session_id: string;
          side: string;
          content_type: string;
        }>`select i.file_id::text, i.session_id::text, i.side, i.content_type from idv_images i join idv_sessions v on v.id = i.session_id
        where i.account_id = ${a} and i.file_id is not null and ${phoneOrRef(s, 'v.phone_number', 'v.customer_ref')}`.execute(trx)
      ).rows.map((r) => ({ id: r.file_id, name: `${r.session_id}-${r.side}.${r.content_type.split('/')[1] ?? 'bin'}` })),
    async erase(deps, trx, a, s, now, batch) {
      const ids = await take(trx, 'idv_sessions', a, phoneOrRef(s), batch);
      if (!ids.length) return 0;
      const images = (
        await sql<{
          file_id: string;
        }>`select file_id::text from idv_images where account_id = ${a} and session_id = any(${ids}::uuid[]) and file_id is not null`.execute(
          trx,
        )
      ).rows;
      await deleteFiles(
        deps,
        trx,
        a,
        images.map((i) => i.file_id),
      );
      await sql`update idv_images set file_id = null where account_id = ${a} and session_id = any(${ids}::uuid[])`.execute(trx);
      await sql`update idv_sessions set phone_number = ${ERASED}, customer_ref = ${ERASED}, expected_name = null, expected_date_of_birth = null, extracted = null,
          document_number = null, decision_note = null, images_redacted_at = coalesce(images_redacted_at, ${now}), data_redacted_at = coalesce(data_redacted_at, ${now}), redacted_at = ${now}
        where account_id = ${a} and id = any(${ids}::uuid[])`.execute(trx);
      await forgetTasks(trx, a, ids, now);
      return ids.length;
    },
  },
  taskStore({
    key: 'eform.requests',
    app: 'e-form',
    label: 'Form requests and answers: phone number, customer reference, prefilled values, answers, uploaded files',
    task: TASKS.eform,
    from: 'eform_requests r left join eform_submissions sub on sub.request_id = r.id',
    select:
      'r.id, r.form_id, r.version, r.phone_number, r.customer_ref, r.status, r.prefill, r.created_at, r.submitted_at, sub.answers',
    files: async (trx, a, s) =>
      (
        await sql<{
          file_id: string;
          request_id: string;
        }>`select unnest(sub.file_ids)::text as file_id, sub.request_id::text from eform_submissions sub join eform_requests r on r.id = sub.request_id
        where sub.account_id = ${a} and ${phoneOrRef(s, 'r.phone_number', 'r.customer_ref')}`.execute(trx)
      ).rows.map((r) => ({ id: r.file_id, name: `${r.request_id}-${r.file_id}` })),
  }),
  taskStore({
    key: 'payments.payments',
    app: 'payments',
    label: 'Payment requests: phone number, customer reference, checkout link (Stripe keeps its own records)',
    task: TASKS.payments,
    from: 'payments r',
    select:
      'r.id, r.phone_number, r.customer_ref, r.status, r.amount, r.currency, r.description, r.refunded_amount, r.created_at, r.paid_at',
  }),
  {
    key: 'signature.requests',
    app: 'document-signature',
    label:
      "Signature requests: signer's name, phone number, customer reference, address, browser, typed values, drawn signatures, signed PDF",
    count: (trx, a, s) =>
      countOf(trx, sql`select count(*)::int as n from sig_requests where account_id = ${a} and ${phoneOrRef(s)}`),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select r.id, r.document_name, r.signer_name, r.phone_number, r.customer_ref, r.status, r.signer_ip, r.signer_user_agent, r.created_at, r.signed_at, r.completed_at,
          r.legal_hold_reason is not null as legal_hold,
          coalesce((select jsonb_object_agg(f.field_id, f.value) from sig_field_values f where f.request_id = r.id and f.value is not null), '{}'::jsonb) as values
        from sig_requests r where r.account_id = ${a} and ${phoneOrRef(s, 'r.phone_number', 'r.customer_ref')} order by r.created_at`,
      ),
    files: async (trx, a, s) =>
      (
        await sql<{
          file_id: string;
          name: string;
        }>`select r.signed_file_id::text as file_id, r.id || '-signed.pdf' as name from sig_requests r
          where r.account_id = ${a} and r.signed_file_id is not null and ${phoneOrRef(s, 'r.phone_number', 'r.customer_ref')}
        union all
        select f.image_file_id::text, r.id || '-' || f.field_id || '.png' from sig_field_values f join sig_requests r on r.id = f.request_id
          where f.account_id = ${a} and f.image_file_id is not null and ${phoneOrRef(s, 'r.phone_number', 'r.customer_ref')}`.execute(
          trx,
        )
      ).rows.map((r) => ({ id: r.file_id, name: r.name })),
    async erase(deps, trx, a, s, now, batch) {
      // a signed document under a legal hold is kept whole (the request's answer lists it)
      const ids = await take(trx, 'sig_requests', a, sql<boolean>`${phoneOrRef(s)} and legal_hold_at is null`, batch);
      if (!ids.length) return 0;
      const rows = (
        await sql<{
          signed_file_id: string | null;
        }>`select signed_file_id::text from sig_requests where account_id = ${a} and id = any(${ids}::uuid[])`.execute(trx)
      ).rows;
      const images = (
        await sql<{
          image_file_id: string;
        }>`select image_file_id::text from sig_field_values where account_id = ${a} and request_id = any(${ids}::uuid[]) and image_file_id is not null`.execute(
          trx,
        )
      ).rows;
      await deleteFiles(deps, trx, a, [...rows.map((r) => r.signed_file_id), ...images.map((i) => i.image_file_id)]);
      await sql`update sig_field_values set value = null, image_file_id = null where account_id = ${a} and request_id = any(${ids}::uuid[])`.execute(
        trx,
      );
      await sql`update sig_requests set signer_name = ${ERASED}, phone_number = ${ERASED}, customer_ref = null, signer_ip = null, signer_user_agent = null, decline_reason = null,
          signed_file_id = null, files_deleted_at = coalesce(files_deleted_at, ${now})
        where account_id = ${a} and id = any(${ids}::uuid[])`.execute(trx);
      // the signer's copy links (issue 40); forgetTasks revokes every link of the task as well
      await revokeSignerCopies(trx, a, ids, now);
      await forgetTasks(trx, a, ids, now);
      return ids.length;
    },
  },
  {
    key: 'results',
    app: 'platform',
    label: 'Customer results (the console search): phone number, customer reference',
    count: (trx, a, s) =>
      countOf(trx, sql`select count(*)::int as n from customer_results where account_id = ${a} and ${phoneOrRef(s)}`),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select app, status, ts, session_ref, phone_number, customer_ref from customer_results where account_id = ${a} and ${phoneOrRef(s)} order by ts`,
      ),
    async erase(_d, trx, a, s, _now, batch) {
      const ids = await take(trx, 'customer_results', a, phoneOrRef(s), batch);
      if (!ids.length) return 0;
      await sql`update customer_results set phone_number = null, customer_ref = null where account_id = ${a} and id = any(${ids}::uuid[])`.execute(
        trx,
      );
      return ids.length;
    },
  },
  deletingStore({
    key: 'sms.outbox',
    app: 'platform',
    label: 'The development SMS outbox: number and text of each message',
    table: 'dev_sms_outbox',
    match: (s) => sql<boolean>`to_number = any(${s.phones}::text[])`,
    select: 'to_number, body, created_at',
    order: 'created_at',
  }),
  {
    key: 'sms.messages',
    app: 'platform',
    label: "The message log: each text's number and the provider's message id (the provider's copy is deleted through its API)",
    count: (trx, a, s) =>
      countOf(
        trx,
        sql`select count(*)::int as n from sms_messages where account_id = ${a} and phone_number = any(${s.phones}::text[])`,
      ),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select provider, sid, phone_number, sent_at from sms_messages where account_id = ${a} and phone_number = any(${s.phones}::text[]) order by sent_at`,
      ),
    async erase(deps, trx, a, s, _now, batch) {
      const rows = (
        await sql<{
          id: string;
          sid: string;
          provider: string;
        }>`select id::text, sid, provider from sms_messages where account_id = ${a} and phone_number = any(${s.phones}::text[]) limit ${batch} for update skip locked`.execute(
          trx,
        )
      ).rows;
      if (!rows.length) return 0;
      const settings = (
        await sql<{
          account_sid: string;
          auth_token_enc: string;
          phone_number: string;
          provider: string;
        }>`select account_sid, auth_token_enc, phone_number, provider from sms_settings where account_id = ${a}`.execute(trx)
      ).rows[0];
      for (const row of rows) {
        // the provider's copy first: when Twilio cannot be reached the batch fails and is tried
        // again, rather than forgetting the id of a message it still holds
        if (row.provider === 'twilio' && settings?.provider === 'twilio') await deleteTwilioMessage(deps, settings, row.sid);
      }
      await sql`delete from sms_messages where account_id = ${a} and id = any(${rows.map((r) => r.id)}::bigint[])`.execute(trx);
      return rows.length;
    },
  },
  {
    key: 'sms.guard',
    app: 'platform',
    label: 'The SMS fraud guard: sends per number range (the number itself is erased, the count kept)',
    count: (trx, a, s) =>
      countOf(
        trx,
        sql`select count(*)::int as n from sms_guard_sends where account_id = ${a} and phone_number = any(${s.phones}::text[])`,
      ),
    rows: (trx, a, s) =>
      rowsOf(
        trx,
        sql`select prefix, phone_number, ts, answered from sms_guard_sends where account_id = ${a} and phone_number = any(${s.phones}::text[]) order by ts`,
      ),
    async erase(_d, trx, a, s, _now, batch) {
      const ids = await take(trx, 'sms_guard_sends', a, sql<boolean>`phone_number = any(${s.phones}::text[])`, batch);
      if (!ids.length) return 0;
      await sql`update sms_guard_sends set phone_number = ${ERASED} where account_id = ${a} and id = any(${ids}::bigint[])`.execute(
        trx,
      );
      return ids.length;
    },
  },
  {
    key: 'api.idempotency',
    app: 'platform',
    label: 'Stored /api/v1 answers (kept 24 hours for Idempotency-Key) that quote the caller',
    count: (trx, a, s) =>
      countOf(
        trx,
        sql`select count(*)::int as n from api_idempotency where account_id = ${a} and answer::text like any(${needlesOf(s, true).map(likeNeedle)}::text[])`,
      ),
    rows: async () => [],
    async erase(_d, trx, a, s, _now, batch) {
      const keys = await take(
        trx,
        'api_idempotency',
        a,
        sql<boolean>`answer::text like any(${needlesOf(s, true).map(likeNeedle)}::text[])`,
        batch,
        'key',
      );
      if (!keys.length) return 0;
      // a replay of a deleted key runs the request again, which finds the caller erased
      await sql`delete from api_idempotency where account_id = ${a} and key = any(${keys}::text[])`.execute(trx);
      return keys.length;
    },
  },
  textStore({
    key: 'webhooks.events',
    label: 'Webhook events (pending and delivered) that quote the caller',
    table: 'webhook_events',
    id: 'id',
    columns: ['payload'],
    json: true,
    select: 'id, app, type, payload, created_at',
  }),
  textStore({
    key: 'webhooks.deliveries',
    label: "Webhook delivery records whose receiver's answer quotes the caller",
    table: 'webhook_deliveries',
    id: 'id',
    columns: ['response_excerpt'],
    select: 'id, state, status_code, response_excerpt, created_at',
  }),
  textStore({
    key: 'logs.shipments',
    label: 'Log shipments waiting for a logging destination that quote the caller',
    table: 'log_outbox',
    id: 'id',
    columns: ['payload'],
    json: true,
    select: 'id, destination, payload, created_at',
  }),
  textStore({
    key: 'audit.entries',
    label: 'Audit log entries that quote the caller',
    table: 'audit_log',
    id: 'id',
    columns: ['description'],
    select: 'ts, namespace, event, description',
  }),
  textStore({
    key: 'notifications',
    label: 'Console notifications that quote the caller',
    table: 'notifications',
    id: 'id',
    columns: ['title', 'body'],
    select: 'kind, title, body, created_at',
  }),
  textStore({
    key: 'tasks.timeline',
    label: 'Task timelines whose steps quote the caller',
    table: 'task_events',
    id: 'id',
    columns: ['description'],
    select: 'app, task_id, ts, type, description',
  }),
];

/**
 * A request's subject, one step wider than what was asked: the records with the number give the
 * customer references they were sent for, and the other way round, and the names the caller gave
 * (quoted in texts). Worked out once, when the request is made: after the first batch the links
 * between them are erased.
 */
export async function widenSubject(trx: Trx, accountId: string, asked: { phone?: string; ref?: string }): Promise<Subject> {
  const phones = new Set<string>(asked.phone ? [asked.phone] : []);
  const refs = new Set<string>(asked.ref ? [asked.ref] : []);
  const names = new Set<string>();
  const s: Subject = { phones: [...phones], refs: [...refs], names: [] };
  const linked = await sql<{ phone: string | null; ref: string | null; name: string | null }>`
    select phone_number as phone, customer_ref as ref, null as name from otp_verifications where account_id = ${accountId} and ${phoneOrRef(s)}
    union select phone_number, customer_ref, display_name from passkey_tasks where account_id = ${accountId} and ${phoneOrRef(s)}
    union select phone_number, customer_ref, expected_name from idv_sessions where account_id = ${accountId} and ${phoneOrRef(s)}
    union select phone_number, customer_ref, null from eform_requests where account_id = ${accountId} and ${phoneOrRef(s)}
    union select phone_number, customer_ref, null from payments where account_id = ${accountId} and ${phoneOrRef(s)}
    union select phone_number, customer_ref, signer_name from sig_requests where account_id = ${accountId} and ${phoneOrRef(s)}`.execute(
    trx,
  );
  for (const row of linked.rows) {
    if (row.phone && row.phone !== ERASED) phones.add(row.phone);
    if (row.ref && row.ref !== ERASED) refs.add(row.ref);
    if (row.name && row.name !== ERASED) names.add(row.name);
  }
  return { phones: [...phones], refs: [...refs], names: [...names] };
}

/** How long a worker holds a privacy request before another may take it over (renewed every batch). */
export const PRIVACY_LEASE_MS = 2 * 60_000;

/** Adds `n` to the request's count for `store` and renews its lease, in the batch's own transaction. */
export async function countProgress(
  deps: Deps,
  trx: Trx,
  accountId: string,
  id: string,
  store: string,
  n: number,
): Promise<void> {
  await sql`update privacy_requests set progress = progress || jsonb_build_object(${store}::text, coalesce((progress->>${store}::text)::int, 0) + ${n}::int),
      locked_until = ${new Date(deps.now().getTime() + PRIVACY_LEASE_MS)}
    where account_id = ${accountId} and id = ${id}`.execute(trx);
}
