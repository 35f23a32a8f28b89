import { sql } from 'kysely';
import type { Database } from '../../api/db/index';
import type { SeededAccount } from '../../api/seed';

// The data of the activity-list scale bench (app-lists.scale.ts): per list, how its table is
// filled with realistic rows by set-based SQL. Apart so that a plan can be looked at by hand on
// the same data (generate into a database of your own and EXPLAIN as the app's role).

export const ROWS = Number(process.env.BENCH_APP_LIST_ROWS ?? 1_000_000);
/** rows of each other account: a quarter as many, spread over the same time span */
export const OTHERS = Math.max(1, Math.floor(ROWS / 4));
export const DEPTH = Math.floor(ROWS * 0.9);

/** The SQL of one account's generated rows: `g` runs 1..n, `at` is the row's created_at. */
export type Generate = (account: string, n: number, at: string) => string;

export type List = {
  /** the app and the list as the console names them */
  name: string;
  path: string;
  /** the app whose module's listTasks serves the list (timed alone as well); none for a list of its own route */
  module?: string;
  /** the table the list pages, for the key of the row at depth */
  table: string;
  generate: Generate;
  /** other statements once all rows exist (derived tables) */
  after?: (main: string) => string;
  /** the rows of a response body */
  rowsOf?: (body: unknown) => unknown[];
  /** the seeded account and admin that page it (an unreleased app shows only to the provider's staff) */
  account?: { key: string; email: string };
  /** more cases: label, query, depth, target */
  extra?: (main: string, db: Database) => Promise<[string, string, number, number?][]>;
};

// created_at of row g: the main account's rows a second apart, the others' spread over the same span
const spread = (step: number, offset: number) => `now() - make_interval(secs => g * ${step} + ${offset})`;

export const LISTS: List[] = [
  {
    name: 'One-Time Passcode Authentications',
    module: 'one-time-passcode',
    path: '/one-time-passcode/tasks',
    table: 'otp_verifications',
    generate: (account, n, at) => `
      insert into otp_verifications (account_id, phone_number, customer_ref, agent, status, code_hmac, code_encrypted, sends, checks, max_checks, created_at, expires_at, ended_at, verified_at, failure_reason)
      select '${account}', '+1555' || lpad((g % 10000000)::text, 7, '0'), 'CUST-' || (g % 50000), 'agent' || (g % 20) || '@bench.test',
             (array['approved','approved','approved','expired','max_attempts_reached','canceled','failed','approved'])[1 + g % 8],
             md5(g::text), md5(g::text || 'enc'), 1 + g % 2, g % 4, 5, ${at}, ${at} + interval '10 minutes',
             ${at} + interval '1 minute', case when g % 8 in (0, 1, 2, 7) then ${at} + interval '1 minute' end,
             case when g % 8 = 6 then 'The carrier rejected the message' end
      from generate_series(1, ${n}) g`,
  },
  {
    name: 'Passkeys Activity',
    module: 'passkeys',
    path: '/passkeys/tasks',
    table: 'passkey_tasks',
    generate: (account, n, at) => `
      insert into passkey_tasks (account_id, kind, customer_ref, phone_number, display_name, agent, status, failure_reason, created_at, expires_at, ended_at)
      select '${account}', case when g % 5 = 0 then 'enrollment' else 'verification' end, 'CUST-' || (g % 50000), '+1555' || lpad((g % 10000000)::text, 7, '0'),
             'Customer ' || (g % 50000), 'agent' || (g % 20) || '@bench.test',
             (array['succeeded','succeeded','succeeded','failed','expired','not_delivered','cancelled','succeeded'])[1 + g % 8],
             case when g % 8 = 3 then 'not_allowed' end, ${at}, ${at} + interval '15 minutes', ${at} + interval '2 minutes'
      from generate_series(1, ${n}) g`,
  },
  {
    name: 'Passkeys Enrollments',
    path: '/passkeys/credentials',
    table: 'passkey_credentials',
    generate: (account, n, at) => `
      insert into passkey_credentials (account_id, customer_ref, display_name, user_handle, credential_id, public_key, counter, transports, aaguid, backup_eligible, backed_up, rp_id, created_at, last_used_at, revoked_at)
      select '${account}', 'CUST-' || g, 'Customer ' || g, md5('u' || g), md5('${account}' || g) || md5(g::text), repeat(md5(g::text), 3), g % 100,
             array['internal','hybrid'], 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd', g % 3 <> 0, g % 3 <> 0, 'console.bench.test',
             ${at}, case when g % 2 = 0 then ${at} + interval '1 day' end, case when g % 10 = 0 then ${at} + interval '30 days' end
      from generate_series(1, ${n}) g`,
  },
  {
    name: 'Document Signature Signatures',
    module: 'document-signature',
    path: '/document-signature/tasks',
    table: 'sig_requests',
    generate: (account, n, at) => `
      with d as (insert into sig_documents (account_id, name, created_at, created_by, updated_at) values ('${account}', 'Loan agreement', now(), 'Bench', now()) returning id),
      v as (insert into sig_document_versions (account_id, document_id, version, state, name, file_id, file_name, page_count, page_sizes, created_at, created_by, published_at, published_by)
            select '${account}', d.id, 1, 'published', 'Loan agreement', gen_random_uuid(), 'loan.pdf', 2, '[{"width":612,"height":792},{"width":612,"height":792}]', now(), 'Bench', now(), 'Bench' from d
            returning id, document_id, file_id)
      insert into sig_requests (account_id, document_id, version_id, version, document_name, signer_name, phone_number, customer_ref, agent, status, sends, consent_text,
                                created_at, expires_at, opened_at, signed_at, completed_at, ended_at, original_file_id, original_sha256, signed_file_id, signed_sha256)
      select '${account}', v.document_id, v.id, 1, 'Loan agreement', 'Signer ' || (g % 50000), '+1555' || lpad((g % 10000000)::text, 7, '0'), 'CUST-' || (g % 50000),
             'agent' || (g % 20) || '@bench.test', (array['completed','completed','completed','declined','expired','cancelled','opened','completed'])[1 + g % 8], 1,
             'I agree to sign electronically.', ${at}, ${at} + interval '7 days', ${at} + interval '1 minute',
             case when g % 8 in (0, 1, 2, 7) then ${at} + interval '3 minutes' end, case when g % 8 in (0, 1, 2, 7) then ${at} + interval '4 minutes' end,
             case when g % 8 <> 6 then ${at} + interval '4 minutes' end, v.file_id, md5(g::text) || md5(g::text),
             case when g % 8 in (0, 1, 2, 7) then gen_random_uuid() end, case when g % 8 in (0, 1, 2, 7) then md5('s' || g) || md5('s' || g) end
      from v, generate_series(1, ${n}) g`,
  },
  {
    name: 'eForm Submissions',
    module: 'e-form',
    path: '/e-form/submissions',
    table: 'eform_requests',
    rowsOf: (body) => (body as { rows: unknown[] }).rows,
    generate: (account, n, at) => `
      with f as (insert into eform_forms (account_id, status, draft, latest_version, created_at, updated_at)
                 values ('${account}', 'published', '${FORM}'::jsonb, 1, now(), now()) returning id),
      v as (insert into eform_versions (account_id, form_id, version, definition, published_at, published_by) select '${account}', f.id, 1, '${FORM}'::jsonb, now(), 'Bench' from f returning form_id)
      insert into eform_requests (account_id, form_id, version, status, phone_number, customer_ref, agent, created_at, expires_at, opened_at, submitted_at, ended_at)
      select '${account}', v.form_id, 1, case when g % 2 = 0 then 'submitted' when g % 7 = 0 then 'expired' else 'opened' end,
             '+1555' || lpad(g::text, 7, '0'), 'CUST-' || (g % 1000), 'agent' || (g % 5) || '@bench.test', ${at}, ${at} + interval '7 days', ${at},
             case when g % 2 = 0 then ${at} + interval '3 minutes' end, case when g % 2 = 0 then ${at} + interval '3 minutes' end
      from v, generate_series(1, ${n}) g`,
    after: () => `
      insert into eform_submissions (request_id, account_id, form_id, version, answers, answers_text, submitted_at)
      select id, account_id, form_id, 1,
             jsonb_build_object('name', 'Person ' || customer_ref, 'email', lower(customer_ref) || '@example.com', 'policy', 'AB' || lpad(right(phone_number, 7), 8, '0'),
                                'date', to_char(created_at - interval '2 days', 'YYYY-MM-DD'), 'kind', 'Water damage', 'country', 'United Kingdom', 'city', 'City ' || right(phone_number, 3),
                                'description', 'A pipe burst in the kitchen overnight and water came through the ceiling of the room below.', 'amount', 1200,
                                'police', 'No', 'contact', jsonb_build_array('Phone', 'E-mail'), 'consent', true, 'customerRef', customer_ref),
             lower('Person ' || customer_ref || ' ' || 'City ' || right(phone_number, 3) || ' a pipe burst in the kitchen overnight'), submitted_at
      from eform_requests where status = 'submitted'`,
    // the filters the Submissions page offers, as the eForm bench measured them before
    extra: async (main, db) => {
      const form = (await sql<{ id: string }>`select id from eform_forms where account_id = ${main}`.execute(db.kysely)).rows[0]!
        .id;
      return [
        ['first page, one form (its columns included)', `formId=${form}`, 0],
        ['page at depth, one form', `formId=${form}`, DEPTH],
        ['page at depth, status submitted', 'status=submitted', DEPTH],
        ['page 100 rows in, one customer', 'q=CUST-42', Math.min(DEPTH, 100)],
        // a substring of the answers: the trigram index of 1250 serves it (it scanned before:
        // 395 ms), held to 100 ms; a needle in one submission of 1,000, and one in every submission
        [
          'first page, answer contains "city 042" (trigram index, count capped)',
          `formId=${form}&contains=${encodeURIComponent('city 042')}`,
          0,
          100,
        ],
        [
          'first page, answer contains "pipe burst" (in every submission, count capped)',
          `formId=${form}&contains=${encodeURIComponent('pipe burst')}`,
          0,
          100,
        ],
      ];
    },
  },
  {
    name: 'Payments payments',
    module: 'payments',
    path: '/payments/tasks',
    table: 'payments',
    generate: (account, n, at) => `
      insert into payments (id, account_id, stripe_account_id, phone_number, customer_ref, agent, status, amount, currency, description, product_id, product_name, price_id,
                            checkout_session_id, checkout_url, payment_intent_id, refunded_amount, created_at, expires_at, opened_at, paid_at, ended_at, failure_reason)
      select gen_random_uuid(), '${account}', 'acct_1Bench${account.slice(0, 8)}', '+1555' || lpad((g % 10000000)::text, 7, '0'), 'CUST-' || (g % 50000), 'agent' || (g % 20) || '@bench.test',
             (array['succeeded','succeeded','succeeded','expired','failed','refunded','partially_refunded','succeeded'])[1 + g % 8],
             500 + (g % 200) * 25, 'usd', 'Invoice ' || g, case when g % 3 = 0 then 'prod_Bench' end, case when g % 3 = 0 then 'Annual plan' end, case when g % 3 = 0 then 'price_Bench' end,
             'cs_test_' || md5('${account}' || g), 'https://checkout.stripe.com/c/pay/cs_test_' || md5('${account}' || g),
             case when g % 8 in (0, 1, 2, 5, 6, 7) then 'pi_' || md5('${account}' || g) end,
             case when g % 8 = 5 then 500 + (g % 200) * 25 when g % 8 = 6 then 100 else 0 end,
             ${at}, ${at} + interval '1 day', ${at} + interval '1 minute', case when g % 8 in (0, 1, 2, 5, 6, 7) then ${at} + interval '2 minutes' end,
             case when g % 8 <> 3 then ${at} + interval '2 minutes' end, case when g % 8 = 4 then 'Your card was declined.' end
      from generate_series(1, ${n}) g`,
  },
  {
    name: 'Identity Verification verifications',
    module: 'identity-verification',
    account: { key: 'provider', email: 'staff@provider.test' },
    path: '/identity-verification/tasks',
    table: 'idv_sessions',
    generate: (account, n, at) => `
      insert into idv_sessions (account_id, phone_number, customer_ref, agent, status, document_type, expected_name, attempt, created_at, link_expires_at, started_at, submitted_at, ended_at,
                                document_number, failed_checks, assigned_name, decision, reviewer_name, decided_at, redacted_at, images_redacted_at, data_redacted_at)
      select '${account}', '+1555' || lpad((g % 10000000)::text, 7, '0'), 'CUST-' || (g % 50000), 'agent' || (g % 20) || '@bench.test',
             (array['approved','approved','approved','declined','expired','cancelled','needs_review','approved'])[1 + g % 8],
             (array['passport','id_card','residence_permit'])[1 + g % 3], 'Customer ' || (g % 50000), 1, ${at}, ${at} + interval '1 hour', ${at} + interval '1 minute',
             ${at} + interval '5 minutes', case when g % 8 <> 6 then ${at} + interval '10 minutes' end, case when g % 8 <> 4 then 'X' || lpad(g::text, 8, '0') end, g % 8 / 3,
             case when g % 8 = 6 then 'Reviewer ' || (g % 4) end, case when g % 8 in (0, 1, 2, 7) then 'approved' when g % 8 = 3 then 'declined' end,
             case when g % 8 in (0, 1, 2, 3, 7) then 'Reviewer ' || (g % 4) end, case when g % 8 in (0, 1, 2, 3, 7) then ${at} + interval '10 minutes' end,
             case when g > 500000 then ${at} + interval '90 days' end, case when g > 500000 then ${at} + interval '90 days' end, case when g > 500000 then ${at} + interval '90 days' end
      from generate_series(1, ${n}) g`,
  },
];

// A form of the size a contact centre uses (a claim intake: fourteen fields, help texts, a
// country list): its definition is a few kilobytes, stored compressed, as real ones are.
const COUNTRIES = [
  'Australia',
  'Austria',
  'Belgium',
  'Brazil',
  'Canada',
  'Chile',
  'Denmark',
  'Finland',
  'France',
  'Germany',
  'Greece',
  'India',
  'Ireland',
  'Italy',
  'Japan',
  'Mexico',
  'Netherlands',
  'New Zealand',
  'Norway',
  'Poland',
  'Portugal',
  'Singapore',
  'South Africa',
  'Spain',
  'Sweden',
  'Switzerland',
  'United Kingdom',
  'United States',
];
const FORM = JSON.stringify({
  title: 'Insurance claim intake',
  description: 'Tell us what happened. Your answers go straight to the adviser on your call; nothing is shared with anyone else.',
  submitLabel: 'Send my claim',
  hiddenFields: [
    { key: 'customerRef', label: 'Customer' },
    { key: 'caseId', label: 'Case' },
  ],
  fields: [
    {
      id: 'name',
      type: 'short_text',
      label: 'Full name',
      help: 'As it appears on your policy documents.',
      required: true,
      validation: { maxLength: 200 },
    },
    { id: 'email', type: 'email', label: 'E-mail address', help: 'We send the claim reference here.', required: true },
    {
      id: 'policy',
      type: 'short_text',
      label: 'Policy number',
      help: 'Ten characters, on the first page of your policy: two letters then eight digits.',
      required: true,
      validation: { pattern: '^[A-Z]{2}[0-9]{8}$', patternMessage: 'Two letters then eight digits, such as AB12345678' },
    },
    { id: 'date', type: 'date', label: 'Date of the incident', required: true, validation: { minDate: '2020-01-01' } },
    {
      id: 'kind',
      type: 'dropdown',
      label: 'What happened',
      required: true,
      options: [
        'Water damage',
        'Fire or smoke',
        'Theft or burglary',
        'Storm damage',
        'Accidental damage',
        'Vehicle collision',
        'Other',
      ],
    },
    { id: 'country', type: 'dropdown', label: 'Country where it happened', required: true, options: COUNTRIES },
    { id: 'city', type: 'short_text', label: 'Town or city', required: false },
    {
      id: 'description',
      type: 'long_text',
      label: 'Describe what happened',
      help: 'Include what was damaged or lost, when you noticed it and anything you have done since. The more detail, the faster we can help.',
      required: true,
      validation: { minLength: 20, maxLength: 5000 },
    },
    {
      id: 'amount',
      type: 'number',
      label: 'Estimated cost of the damage',
      help: 'In your policy currency; a rough figure is fine.',
      required: false,
      validation: { min: 0, max: 1000000 },
    },
    {
      id: 'police',
      type: 'single_choice',
      label: 'Was it reported to the police?',
      required: true,
      options: ['Yes', 'No', 'Not yet'],
    },
    {
      id: 'reference',
      type: 'short_text',
      label: 'Police reference',
      required: false,
      condition: { action: 'show', match: 'all', rules: [{ fieldId: 'police', op: 'equals', value: 'Yes' }] },
    },
    {
      id: 'contact',
      type: 'multiple_choice',
      label: 'How may we contact you?',
      required: true,
      options: ['Phone', 'E-mail', 'SMS', 'Post'],
      validation: { minChoices: 1 },
    },
    {
      id: 'photos',
      type: 'file',
      label: 'Photos of the damage',
      help: 'Up to 10 MB, JPEG or PNG.',
      required: false,
      validation: { maxSizeMb: 10, accept: ['image/jpeg', 'image/png'] },
    },
    {
      id: 'consent',
      type: 'consent',
      label: 'I confirm that the information I have given is true and complete to the best of my knowledge.',
      required: true,
    },
  ],
}).replaceAll("'", "''");

/** Fills the list's table: ROWS rows of `main`, OTHERS of each other account, then vacuum analyze. */
export async function generateList(db: Database, list: List, main: string, accounts: SeededAccount[]): Promise<void> {
  const others = accounts.map((a) => a.id).filter((id) => id !== main);
  // as the tables' owner, past row-level security: the bulk load is no tenant's request
  await sql.raw(list.generate(main, ROWS, spread(1, 0))).execute(db.kysely);
  for (const [i, other] of others.entries())
    await sql.raw(list.generate(other, OTHERS, spread(ROWS / OTHERS, (i + 1) / (others.length + 1)))).execute(db.kysely);
  if (list.after) await sql.raw(list.after(main)).execute(db.kysely);
  // as autovacuum would after such a load
  await sql.raw('vacuum analyze').execute(db.kysely);
}
