import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { FormDefinition, FormDetail, FormRequest, SubmissionDetail, SubmissionPage } from '../../api/contract/apps/e-form';

const CLAIM: FormDefinition = {
  title: 'Claim',
  hiddenFields: [
    { key: 'customerRef', label: 'Customer ID' },
    { key: 'caseId', label: 'Case ID' },
  ],
  fields: [
    { id: 'name', type: 'short_text', label: 'Full name', required: true },
    { id: 'kind', type: 'single_choice', label: 'What happened', required: true, options: ['Theft', 'Damage'] },
    {
      id: 'police',
      type: 'short_text',
      label: 'Police report number',
      required: true,
      condition: { action: 'show', match: 'all', rules: [{ fieldId: 'kind', op: 'equals', value: 'Theft' }] },
    },
    { id: 'note', type: 'long_text', label: 'Note', required: false },
    { id: 'photo', type: 'file', label: 'Photo', required: false, validation: { maxSizeMb: 1, accept: ['image/*'] } },
  ],
};

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

let phones = 0;
const freshPhone = () => `+1415556${String(1000 + phones++).padStart(4, '0')}`;

describe.each(DATABASE_KINDS)('eForm (%s)', (kind) => {
  const t = useTestContext(kind);
  const OWNER = 'owner@acme.test';
  let key: string;
  const v1 = (method: string, path: string, body?: unknown) =>
    t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });
  const page = (path: string, init: RequestInit = {}) =>
    t.app.request(path, { ...init, headers: { host: 'localhost:3000', ...(init.headers ?? {}) } });

  async function publishedForm(definition: FormDefinition = CLAIM): Promise<FormDetail> {
    const created = await t.call('POST', '/e-form/forms', { as: OWNER, body: { definition } });
    expect(created.status).toBe(201);
    const form = (await created.json()) as FormDetail;
    const published = await t.call('POST', `/e-form/forms/${form.id}/publish`, { as: OWNER, body: {} });
    expect(published.status).toBe(200);
    return (await published.json()) as FormDetail;
  }

  /** Sends the form and answers the path of the link the customer got. */
  async function send(formId: string, body: Record<string, unknown> = {}): Promise<{ request: FormRequest; link: string }> {
    const phoneNumber = freshPhone();
    const res = await v1('POST', `/forms/${formId}/requests`, { phoneNumber, customerRef: 'CUST-77', ...body });
    expect(res.status).toBe(201);
    const request = (await res.json()) as FormRequest;
    const outbox = (await (await t.call('GET', '/dev/sms-outbox', { as: OWNER })).json()) as { to: string; body: string }[];
    const sms = outbox.find((m) => m.to === phoneNumber)!;
    return { request, link: new URL(sms.body.match(/https?:\/\/\S+/)![0]).pathname };
  }

  const submit = (link: string, fields: Record<string, string | Blob>) => {
    const data = new FormData();
    for (const [k, val] of Object.entries(fields)) data.append(k, val);
    return page(link, { method: 'POST', body: data });
  };

  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: OWNER, body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = await apiKeyOf(t, OWNER);
  });

  it('a published version never changes: editing the draft and publishing again makes version 2', async () => {
    const form = await publishedForm();
    expect(form).toMatchObject({ status: 'published', version: 1, hasDraftChanges: false });
    const edited = { ...CLAIM, fields: CLAIM.fields.filter((f) => f.id !== 'note') };
    const saved = await t.call('PUT', `/e-form/forms/${form.id}/draft`, { as: OWNER, body: { definition: edited } });
    expect(await saved.json()).toMatchObject({ version: 1, hasDraftChanges: true });
    const v1def = await t.db.tenant(t.account('acme').id, (trx) =>
      sql<{
        definition: FormDefinition;
      }>`select definition from eform_versions where form_id = ${form.id} and version = 1`.execute(trx),
    );
    expect(v1def.rows[0]!.definition.fields.map((f) => f.id)).toContain('note');
    // the database itself refuses to change a published version
    await expect(
      t.db.tenant(t.account('acme').id, (trx) =>
        sql`update eform_versions set definition = '{}' where form_id = ${form.id}`.execute(trx),
      ),
    ).rejects.toThrow(/cannot be changed/);
    const again = await t.call('POST', `/e-form/forms/${form.id}/publish`, { as: OWNER, body: {} });
    expect(await again.json()).toMatchObject({ version: 2, hasDraftChanges: false, versions: [{ version: 2 }, { version: 1 }] });
  });

  it('a draft cannot be sent, a closed form cannot be sent, and a form with a looking-ahead condition cannot be published', async () => {
    const created = (await (
      await t.call('POST', '/e-form/forms', { as: OWNER, body: { definition: CLAIM } })
    ).json()) as FormDetail;
    const refused = await v1('POST', `/forms/${created.id}/requests`, { phoneNumber: freshPhone() });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'FORM_NOT_PUBLISHED' });
    const ahead = { ...CLAIM, fields: [{ ...CLAIM.fields[2]! }, ...CLAIM.fields.filter((f) => f.id !== 'police')] };
    await t.call('PUT', `/e-form/forms/${created.id}/draft`, { as: OWNER, body: { definition: ahead } });
    const notReady = await t.call('POST', `/e-form/forms/${created.id}/publish`, { as: OWNER, body: {} });
    expect(notReady.status).toBe(400);
    expect(await notReady.json()).toMatchObject({
      code: 'FORM_NOT_READY',
      fields: { police: 'A condition can only use fields above this one' },
    });
    const form = await publishedForm();
    expect((await t.call('POST', `/e-form/forms/${form.id}/close`, { as: OWNER })).status).toBe(200);
    const closed = await v1('POST', `/forms/${form.id}/requests`, { phoneNumber: freshPhone() });
    expect(await closed.json()).toMatchObject({ code: 'FORM_CLOSED' });
    const list = (await (await t.call('GET', '/e-form/forms', { as: OWNER })).json()) as { id: string; status: string }[];
    expect(list.find((f) => f.id === form.id)!.status).toBe('closed');
  });

  const PATTERNED = (pattern: string): FormDefinition => ({
    title: 'Code',
    hiddenFields: [],
    fields: [
      { id: 'code', type: 'short_text', label: 'Code', required: true, validation: { pattern, patternMessage: 'Not a code' } },
    ],
  });

  it('a hostile answer to a nested-repetition pattern is checked at once and /api/health answers meanwhile', async () => {
    const form = await publishedForm(PATTERNED('(a+)+b'));
    const { link } = await send(form.id);
    const started = performance.now();
    // a backtracking RegExp took 102 s on 41 characters, holding every account's requests
    const posting = submit(link, { code: 'a'.repeat(4999) + '!' });
    const health = await t.call('GET', '/health');
    expect(health.status).toBe(200);
    const res = await posting;
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/data-error-for="code">Not a code</);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await submit(link, { code: 'aaab' })).status).toBe(200);
  });

  it('a pattern with back-references or look-around is refused at save and at publish, with a message saying why', async () => {
    const created = await t.call('POST', '/e-form/forms', { as: OWNER, body: { definition: PATTERNED('(a)\\1') } });
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({
      code: 'INVALID_PATTERN',
      message: expect.stringMatching(/^code: The pattern cannot be used .*without look-around or back-references/),
    });
    const form = (await (
      await t.call('POST', '/e-form/forms', { as: OWNER, body: { definition: PATTERNED('[0-9]{5}') } })
    ).json()) as FormDetail;
    const saved = await t.call('PUT', `/e-form/forms/${form.id}/draft`, { as: OWNER, body: { definition: PATTERNED('(?=x)x') } });
    expect(saved.status).toBe(400);
    expect(await saved.json()).toMatchObject({ code: 'INVALID_PATTERN', fields: { code: expect.stringMatching(/look-around/) } });
  });

  it('a form published with a pattern the engine cannot run keeps taking answers without it, with a warning on its page and one audit entry', async () => {
    const form = await publishedForm(PATTERNED('[a-z]+'));
    const acme = t.account('acme').id;
    // published before patterns were checked: the version is written as it was then
    await t.db.tenant(acme, async (trx) => {
      await sql`insert into eform_versions (account_id, form_id, version, definition, published_at, published_by)
        values (${acme}, ${form.id}, 2, ${JSON.stringify(PATTERNED('(a)\\1'))}::jsonb, now(), 'Owner')`.execute(trx);
      await sql`update eform_forms set latest_version = 2 where id = ${form.id}`.execute(trx);
    });
    const detail = (await (await t.call('GET', `/e-form/forms/${form.id}`, { as: OWNER })).json()) as FormDetail;
    expect(detail.warnings).toEqual([expect.stringMatching(/^The pattern of "Code" is not checked: .*back-references/)]);
    for (const code of ['zz', 'yy']) {
      const { link } = await send(form.id);
      expect((await submit(link, { code })).status).toBe(200);
    }
    const entries = await t.db.tenant(acme, (trx) =>
      sql<{
        description: string;
      }>`select description from audit_log where account_id = ${acme} and event = 'form.pattern-dropped'`.execute(trx),
    );
    expect(entries.rows).toEqual([
      { description: expect.stringMatching(/^Version 2 of the form "Code": The pattern of "Code" is not checked/) },
    ]);
  });

  it('a submission that skips a required visible field is refused per field and nothing is stored', async () => {
    const form = await publishedForm();
    const { request, link } = await send(form.id);
    const opened = await page(link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Police report number');
    // Theft shows the police number, which is then required; the name is missing too
    const res = await submit(link, { kind: 'Theft', name: '' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/data-error-for="name">This field is required</);
    expect(html).toMatch(/data-error-for="police">This field is required</);
    const acme = t.account('acme').id;
    const stored = await t.db.tenant(acme, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from eform_submissions where request_id = ${request.id}`.execute(trx),
    );
    expect(stored.rows[0]!.n).toBe(0);
    expect((await v1('GET', `/form-requests/${request.id}`).then((r) => r.json())) as FormRequest).toMatchObject({
      status: 'opened',
      answers: null,
    });
    // a hidden required field is not required: Damage hides the police number
    const ok = await submit(link, { kind: 'Damage', name: 'Ada', police: 'ignored' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Thank you');
    const done = (await (await v1('GET', `/form-requests/${request.id}`)).json()) as FormRequest;
    expect(done).toMatchObject({ status: 'submitted', answers: { name: 'Ada', kind: 'Damage', customerRef: 'CUST-77' } });
    expect(done.answers).not.toHaveProperty('police');
    // the link is spent
    expect((await page(link)).status).toBe(410);
  });

  it('hidden fields are prefilled from the request, cannot be posted by the customer, and reach the webhook', async () => {
    const form = await publishedForm();
    const acme = t.account('acme').id;
    await t.call('POST', '/e-form/webhooks', {
      as: OWNER,
      body: { url: 'https://hooks.acme.test/forms', eventTypes: ['form.sent', 'form.opened', 'form.submitted'], enabled: true },
    });
    const unknown = await v1('POST', `/forms/${form.id}/requests`, { phoneNumber: freshPhone(), prefill: { notAField: 'x' } });
    expect(unknown.status).toBe(400);
    const { request, link } = await send(form.id, { prefill: { caseId: 'CASE-42' } });
    expect(request.prefill).toEqual({ caseId: 'CASE-42', customerRef: 'CUST-77' });
    await page(link);
    expect((await submit(link, { kind: 'Damage', name: 'Bo', caseId: 'FORGED' })).status).toBe(200);
    const got = (await (await v1('GET', `/form-requests/${request.id}`)).json()) as FormRequest;
    expect(got.answers).toMatchObject({ caseId: 'CASE-42', customerRef: 'CUST-77' });
    const events = await t.db.tenant(acme, (trx) =>
      sql<{
        type: string;
        payload: { data: Record<string, unknown> };
      }>`select type, payload from webhook_events where app = 'e-form' and payload->'data'->>'id' = ${request.id} order by created_at`.execute(
        trx,
      ),
    );
    expect(events.rows.map((e) => e.type)).toEqual(['form.sent', 'form.opened', 'form.submitted']);
    expect(events.rows[2]!.payload.data.answers).toMatchObject({ name: 'Bo', caseId: 'CASE-42' });
  });

  it('an uploaded file is checked by size and type, kept in storage and downloaded through a signed link', async () => {
    const form = await publishedForm();
    const { request, link } = await send(form.id);
    await page(link);
    const tooBig = await submit(link, {
      kind: 'Damage',
      name: 'Cy',
      photo: new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' }),
    });
    expect(tooBig.status).toBe(400);
    expect(await tooBig.text()).toContain('The file is larger than 1 MB');
    const wrongType = await submit(link, {
      kind: 'Damage',
      name: 'Cy',
      photo: new File(['hello'], 'a.txt', { type: 'text/plain' }),
    });
    expect(await wrongType.text()).toContain('Choose a file of type image/*');
    const acme = t.account('acme').id;
    expect(
      (
        await t.db.tenant(acme, (trx) =>
          sql<{ n: number }>`select count(*)::int as n from stored_files where app = 'e-form'`.execute(trx),
        )
      ).rows[0]!.n,
    ).toBe(0);
    const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    expect(
      (await submit(link, { kind: 'Damage', name: 'Cy', photo: new File([png], 'photo.png', { type: 'image/png' }) })).status,
    ).toBe(200);
    const detail = (await (await t.call('GET', `/e-form/submissions/${request.id}`, { as: OWNER })).json()) as SubmissionDetail;
    expect(detail.files.photo).toMatchObject({ name: 'photo.png', size: 7 });
    const download = await t.app.request(detail.files.photo!.url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png);
  });

  it('the Submissions list has a column per field, including fields removed later, and the CSV export is formula-safe', async () => {
    const form = await publishedForm();
    const first = await send(form.id);
    await page(first.link);
    expect((await submit(first.link, { kind: 'Damage', name: '=HYPERLINK("http://evil.test")', note: '+1+1' })).status).toBe(200);
    // version 2 drops the note
    await t.call('PUT', `/e-form/forms/${form.id}/draft`, {
      as: OWNER,
      body: { definition: { ...CLAIM, fields: CLAIM.fields.filter((f) => f.id !== 'note') } },
    });
    const warn = await t.call('POST', `/e-form/forms/${form.id}/publish`, { as: OWNER, body: {} });
    expect(warn.status).toBe(409);
    expect(await warn.json()).toMatchObject({ code: 'CONFIRM_REQUIRED' });
    expect((await t.call('POST', `/e-form/forms/${form.id}/publish`, { as: OWNER, body: { confirm: true } })).status).toBe(200);
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    const second = await send(form.id);
    await page(second.link);
    expect((await submit(second.link, { kind: 'Theft', name: 'Di', police: 'PR-9' })).status).toBe(200);

    const list = (await (
      await t.call('GET', `/e-form/submissions?formId=${form.id}`, { as: 'supervisor@acme.test' })
    ).json()) as SubmissionPage;
    expect(list.columns.map((c) => [c.id, c.removed])).toEqual([
      ['name', false],
      ['kind', false],
      ['police', false],
      ['photo', false],
      ['customerRef', false],
      ['caseId', false],
      ['note', true],
    ]);
    expect(list.rows.map((r) => r.version)).toEqual([2, 1]);
    const contains = (await (
      await t.call('GET', `/e-form/submissions?formId=${form.id}&contains=pr-9`, { as: OWNER })
    ).json()) as SubmissionPage;
    expect(contains.rows.map((r) => r.id)).toEqual([second.request.id]);

    const csv = await t.call('GET', `/e-form/submissions/export?formId=${form.id}`, { as: OWNER });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\n')[0]).toContain('Note (removed)');
    expect(text).toContain(`'=HYPERLINK`);
    expect(text).toContain(`'+1+1`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(text).toContain('PR-9');
  });

  it("another account's forms, requests and submissions are not found", async () => {
    const form = await publishedForm();
    const { request } = await send(form.id);
    const globex = 'owner@globex.test';
    expect((await t.call('GET', `/e-form/forms/${form.id}`, { as: globex })).status).toBe(404);
    expect((await t.call('PUT', `/e-form/forms/${form.id}/draft`, { as: globex, body: { definition: CLAIM } })).status).toBe(404);
    expect((await t.call('POST', `/e-form/forms/${form.id}/publish`, { as: globex, body: {} })).status).toBe(404);
    expect((await t.call('GET', `/e-form/submissions/${request.id}`, { as: globex })).status).toBe(404);
    const globexKey = await apiKeyOf(t, globex);
    const other = await t.call('GET', `/v1/form-requests/${request.id}`, { headers: { authorization: `Bearer ${globexKey}` } });
    expect(other.status).toBe(404);
    const rows = (await (await t.call('GET', '/e-form/submissions', { as: globex })).json()) as SubmissionPage;
    expect(rows.rows.find((r) => r.id === request.id)).toBeUndefined();
  });

  it('an agent sends a form by its title; the request is a task with a credit, a timeline and a dashboard figure', async () => {
    const form = await publishedForm({ ...CLAIM, title: 'Agent claim' });
    const res = await t.call('POST', '/e-form/actions/send', {
      as: OWNER,
      body: { input: { form: 'agent claim', phoneNumber: freshPhone(), customerRef: 'CUST-5', caseId: 'C-5' } },
    });
    expect(res.status).toBe(201);
    const result = (await res.json()) as { taskId: string; status: string; task: FormRequest };
    expect(result.status).toBe('sent');
    expect(result.task).toMatchObject({ formId: form.id, prefill: { caseId: 'C-5', customerRef: 'CUST-5' } });
    const task = await t.call('GET', `/e-form/tasks/${result.taskId}`, { as: OWNER });
    expect(await task.json()).toMatchObject({
      status: 'sent',
      values: { form: 'Agent claim' },
      events: [{ type: 'sent' }, { type: 'language' }],
    });
    const acme = t.account('acme').id;
    const charged = await t.db.tenant(acme, (trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from credit_ledger where app = 'e-form' and task_id = ${result.taskId}`.execute(trx),
    );
    expect(charged.rows[0]!.n).toBe(1);
    const dashboard = (await (await t.call('GET', '/e-form/dashboard?days=7', { as: OWNER })).json()) as {
      tiles: { key: string; value: number }[];
    };
    expect(dashboard.tiles.find((x) => x.key === 'sent')!.value).toBeGreaterThan(0);
  });
  it("a form's last submission is its newest submission's time, even after one is removed", async () => {
    const acme = t.account('acme').id;
    const form = await publishedForm({ ...CLAIM, title: 'Last submission' });
    for (const name of ['First', 'Second']) {
      t.clock.now = new Date(t.clock.now.getTime() + 60_000);
      const { link } = await send(form.id);
      expect((await submit(link, { name, kind: 'Damage' })).status).toBeLessThan(400);
    }
    const listed = async () =>
      (
        (await (await t.call('GET', '/e-form/forms', { as: OWNER })).json()) as { id: string; lastSubmissionAt: string | null }[]
      ).find((f) => f.id === form.id)!.lastSubmissionAt;
    const newest = async () =>
      (
        await t.db.system(
          async (trx) =>
            (
              await sql<{
                at: Date;
              }>`select max(submitted_at) as at from eform_submissions where account_id = ${acme} and form_id = ${form.id}`.execute(
                trx,
              )
            ).rows[0]!.at,
        )
      ).toISOString();
    const before = await listed();
    expect(before).toBe(await newest());
    // the newest submission goes (as an erasure removes it): the form says when the one left came in
    await t.db.system((trx) =>
      sql`delete from eform_submissions where request_id = (select request_id from eform_submissions where account_id = ${acme} and form_id = ${form.id} order by submitted_at desc limit 1)`.execute(
        trx,
      ),
    );
    expect(await listed()).toBe(await newest());
    expect(await listed()).not.toBe(before);
  });
});
