import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { DEMO_ACCOUNTS } from '../../seed';
import type { FormDefinition, FormDetail } from '../../contract/apps/e-form';
import { apiCaller } from '../platform/caller';
import { inTransaction, random } from '../one-time-passcode/seed';
import { createForm, openRequest, publishForm, sendForm, submitRequest } from './service';

// Demo history of eForm, made by the service functions real use runs (forms built and published,
// requests sent by SMS to the development outbox, opened and submitted on a clock walked through
// the last 30 days), so the dashboard, Submissions, the forms list and the credits agree.

const DAY = 86_400_000;
const AGENTS = ['maya@acme.test', 'leo@acme.test', 'ines@acme.test'];

const HIDDEN = [
  { key: 'customerRef', label: 'Customer ID' },
  { key: 'caseId', label: 'Case ID' },
];

export const DEMO_FORMS: FormDefinition[] = [
  {
    title: 'Change of address',
    description: 'Tell us where you live now. It takes a minute.',
    hiddenFields: HIDDEN,
    fields: [
      { id: 'fullName', type: 'short_text', label: 'Full name', required: true, validation: { minLength: 2, maxLength: 80 } },
      { id: 'street', type: 'short_text', label: 'Street and number', required: true },
      {
        id: 'postcode',
        type: 'short_text',
        label: 'Postcode',
        required: true,
        validation: { pattern: '[0-9]{5}', patternMessage: 'A postcode is 5 digits' },
      },
      { id: 'city', type: 'short_text', label: 'City', required: true },
      { id: 'movedOn', type: 'date', label: 'Moved on', required: false },
      { id: 'email', type: 'email', label: 'E-mail for confirmations', required: false },
      { id: 'agree', type: 'consent', label: 'I confirm these details are correct', required: true },
    ],
  },
  {
    title: 'Damage claim',
    hiddenFields: HIDDEN,
    fields: [
      {
        id: 'kind',
        type: 'single_choice',
        label: 'What happened',
        required: true,
        options: ['Theft', 'Accidental damage', 'Water damage'],
      },
      {
        id: 'police',
        type: 'short_text',
        label: 'Police report number',
        required: true,
        condition: { action: 'show', match: 'all', rules: [{ fieldId: 'kind', op: 'equals', value: 'Theft' }] },
      },
      { id: 'amount', type: 'number', label: 'Estimated amount (USD)', required: true, validation: { min: 1, max: 50000 } },
      {
        id: 'details',
        type: 'long_text',
        label: 'What happened, in your words',
        required: false,
        condition: { action: 'require', match: 'any', rules: [{ fieldId: 'amount', op: 'greater_than', value: '5000' }] },
      },
      {
        id: 'items',
        type: 'multiple_choice',
        label: 'Items affected',
        required: false,
        options: ['Phone', 'Laptop', 'Furniture', 'Other'],
      },
      {
        id: 'photo',
        type: 'file',
        label: 'A photo of the damage',
        required: false,
        validation: { maxSizeMb: 5, accept: ['image/*', 'application/pdf'] },
      },
    ],
  },
];

const STREETS = ['12 Oak Street', '4 Harbour Road', '88 Elm Avenue', '7 Mill Lane', '301 King Street'];
const CITIES = ['Springfield', 'Riverton', 'Lakeside', 'Hillview'];
const NAMES = ['Ada Moreno', 'Ben Okafor', 'Chloe Martin', 'Dev Patel', 'Eva Novak', 'Femi Adeyemi'];

export async function seedEformHistory(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  options: { perAccount?: Record<string, number>; now?: Date } = {},
): Promise<number> {
  const end = options.now ?? new Date();
  const counts = options.perAccount ?? { 'acme.test': 36 };
  let made = 0;
  for (const demo of DEMO_ACCOUNTS) {
    const n = counts[demo.domain] ?? 0;
    const account = n
      ? await deps.db.system((trx) =>
          trx.selectFrom('accounts').select('id').where('email_domain', '=', demo.domain).executeTakeFirst(),
        )
      : undefined;
    if (!account) continue;
    const accountId = account.id;
    const owner = await deps.db.tenant(accountId, (trx) =>
      trx
        .selectFrom('admins')
        .select(['id', 'first_name', 'last_name'])
        .where('account_id', '=', accountId)
        .where('role', '=', 'owner')
        .executeTakeFirst(),
    );
    const actor = owner ? { id: owner.id, firstName: owner.first_name, lastName: owner.last_name } : null;
    const by = owner ? `${owner.first_name} ${owner.last_name}` : 'Demo';
    await deps.db.tenant(accountId, (trx) =>
      sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values (${accountId}, 'dev-outbox', '', '', '')
        on conflict (account_id) do nothing`.execute(trx),
    );
    const rand = random(n * 104729);
    const start = new Date(end.getTime() - 31 * DAY);
    const at = (t: Date) => ({ ...deps, now: () => t });
    const forms: FormDetail[] = [];
    for (const definition of DEMO_FORMS) {
      const created = await createForm(at(start), accountId, definition, actor);
      forms.push(await publishForm(at(start), accountId, created.id, true, actor, by));
    }
    await deps.db.tenant(accountId, async (trx) => {
      const db = inTransaction(deps.db, trx);
      for (let i = 0; i < n; i++) {
        let clock = new Date(end.getTime() - Math.pow(rand(), 1.2) * 30 * DAY);
        const d = { ...deps, db, now: () => clock };
        const form = forms[i % forms.length]!;
        const phone = `+1555${String(3000000 + i * 41).padStart(7, '0')}`;
        const agent = AGENTS[Math.floor(rand() * AGENTS.length)]!;
        const caller = apiCaller(agent, null, 'Demo agent app');
        const request = await sendForm(
          d,
          accountId,
          form.id,
          { phoneNumber: phone, customerRef: `CUST-${200100 + i}`, prefill: { caseId: `CASE-${7000 + i}` }, agent },
          caller,
        );
        made++;
        const roll = rand();
        if (roll < 0.15) continue; // never opened; the sweep expires it
        clock = new Date(clock.getTime() + (2 + rand() * 60) * 60_000);
        await openRequest(d, accountId, request.id, {
          ip: '203.0.113.7',
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
        });
        if (roll < 0.3) continue; // opened, not submitted
        clock = new Date(clock.getTime() + (1 + rand() * 12) * 60_000);
        const sms = await trx
          .selectFrom('dev_sms_outbox')
          .select('body')
          .where('to_number', '=', phone)
          .orderBy('created_at', 'desc')
          .executeTakeFirstOrThrow();
        const token = sms.body.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
        const name = NAMES[i % NAMES.length]!;
        const values: Record<string, string | string[]> =
          form.draft.title === 'Change of address'
            ? {
                fullName: name,
                street: STREETS[i % STREETS.length]!,
                postcode: String(10000 + Math.floor(rand() * 89999)),
                city: CITIES[i % CITIES.length]!,
                movedOn: new Date(clock.getTime() - 20 * DAY).toISOString().slice(0, 10),
                email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
                agree: 'yes',
              }
            : (() => {
                const kind = ['Theft', 'Accidental damage', 'Water damage'][i % 3]!;
                const amount = String(Math.round(200 + rand() * 8000));
                return {
                  kind,
                  police: kind === 'Theft' ? `PR-${2026000 + i}` : '',
                  amount,
                  details: Number(amount) > 5000 ? 'The pipe under the kitchen sink burst overnight.' : '',
                  items: i % 2 ? ['Phone'] : ['Laptop', 'Furniture'],
                };
              })();
        await submitRequest(
          d,
          accountId,
          request.id,
          token,
          { values, files: {} },
          { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' },
        );
      }
    });
  }
  return made;
}
