import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import type { FormDefinition, FormDetail, FormSummary } from '../../api/contract/apps/e-form';
import { archiveForm } from '../../api/apps/e-form/lifecycle';

// The end of a form's life and titles that repeat: a form never published is deleted, one that
// was published is archived once closed and keeps its submissions; each change is audited in its
// own transaction; a title another form has is flagged (DUPLICATE_TITLE) but never refused.

const OWNER = 'owner@acme.test';
const form = (title: string): FormDefinition => ({
  title,
  hiddenFields: [],
  fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }],
});

describe.each(DATABASE_KINDS)('eForm forms: delete, archive, titles (%s)', (kind) => {
  const t = useTestContext(kind);
  let key = '';

  const create = async (title: string) =>
    (await (await t.call('POST', '/e-form/forms', { as: OWNER, body: { definition: form(title) } })).json()) as FormDetail;
  const publish = async (id: string) => {
    const res = await t.call('POST', `/e-form/forms/${id}/publish`, { as: OWNER, body: { confirm: true } });
    expect(res.status).toBe(200);
    return (await res.json()) as FormDetail;
  };
  const listed = async () => (await (await t.call('GET', '/e-form/forms', { as: OWNER })).json()) as FormSummary[];
  const auditEvents = async () =>
    ((await (await t.call('GET', '/audit-log', { as: OWNER })).json()) as { event: string; description: string }[]).map(
      (e) => `${e.event}: ${e.description}`,
    );

  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: OWNER, body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = ((await (await t.call('GET', '/accounts/developer', { as: OWNER })).json()) as { secretKey: string }).secretKey;
  });

  it('a draft that was never published is deleted for good, with an audit entry', async () => {
    const draft = await create('Scratch form');
    const res = await t.call('DELETE', `/e-form/forms/${draft.id}`, { as: OWNER });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: draft.id, deleted: true });
    expect((await listed()).some((f) => f.id === draft.id)).toBe(false);
    expect((await t.call('GET', `/e-form/forms/${draft.id}`, { as: OWNER })).status).toBe(404);
    expect(await auditEvents()).toContain('form.deleted: Deleted the draft form "Scratch form"');
  });

  it('a published form cannot be deleted: closed, it is archived and keeps its requests in Submissions', async () => {
    const published = await publish((await create('Retired claim')).id);
    const sent = await t.call('POST', `/v1/forms/${published.id}/requests`, {
      body: { phoneNumber: '+14155550191' },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(sent.status).toBe(201);
    const requestId = ((await sent.json()) as { id: string }).id;

    const deleted = await t.call('DELETE', `/e-form/forms/${published.id}`, { as: OWNER });
    expect(deleted.status).toBe(409);
    expect(await deleted.json()).toMatchObject({ code: 'FORM_HAS_HISTORY' });
    const live = await t.call('POST', `/e-form/forms/${published.id}/archive`, { as: OWNER });
    expect(live.status).toBe(409);
    expect(await live.json()).toMatchObject({ code: 'FORM_NOT_CLOSED' });

    expect((await t.call('POST', `/e-form/forms/${published.id}/close`, { as: OWNER })).status).toBe(200);
    const archived = await t.call('POST', `/e-form/forms/${published.id}/archive`, { as: OWNER });
    expect(archived.status).toBe(200);
    expect(await archived.json()).toMatchObject({ id: published.id, status: 'closed', archivedAt: expect.any(String) });
    // the request and the form's versions are still there, and Submissions still finds them by form
    const page = (await (await t.call('GET', `/e-form/submissions?formId=${published.id}`, { as: OWNER })).json()) as {
      rows: { id: string }[];
    };
    expect(page.rows.map((r) => r.id)).toEqual([requestId]);
    expect((await listed()).find((f) => f.id === published.id)!.archivedAt).not.toBeNull();
    expect(await auditEvents()).toContain('form.archived: Archived the form "Retired claim"');
    // an archived form is not offered to agents and cannot be published until restored
    const choices = (await (await t.call('GET', '/e-form/actions/send/choices/form?q=retired', { as: OWNER })).json()) as {
      choices: unknown[];
    };
    expect(choices.choices).toEqual([]);
    const again = await t.call('POST', `/e-form/forms/${published.id}/publish`, { as: OWNER, body: { confirm: true } });
    expect(await again.json()).toMatchObject({ code: 'FORM_ARCHIVED' });

    const restored = await t.call('POST', `/e-form/forms/${published.id}/restore`, { as: OWNER });
    expect(await restored.json()).toMatchObject({ status: 'closed', archivedAt: null });
    expect(await auditEvents()).toContain('form.restored: Restored the archived form "Retired claim"');
  });

  it("the audit entry is written in the archive's own transaction: rolled back together, kept together", async () => {
    const published = await publish((await create('Atomic form')).id);
    expect((await t.call('POST', `/e-form/forms/${published.id}/close`, { as: OWNER })).status).toBe(200);
    const acme = t.account('acme').id;
    const owner = { id: null, firstName: 'Test', lastName: 'Owner' };
    // the same service on a database whose transaction fails as it ends, after the service's work
    const failing = {
      ...t.deps.db,
      tenant: (accountId: string, fn: (trx: never) => Promise<unknown>) =>
        t.db.tenant(accountId, async (trx) => {
          await fn(trx as never);
          throw new Error('commit refused');
        }),
    };
    await expect(
      archiveForm({ ...t.deps, db: failing as unknown as typeof t.deps.db }, acme, published.id, owner),
    ).rejects.toThrow('commit refused');
    const state = () =>
      t.db.tenant(acme, async (trx) => ({
        archived:
          (await sql<{ archived_at: Date | null }>`select archived_at from eform_forms where id = ${published.id}`.execute(trx))
            .rows[0]!.archived_at !== null,
        audited: (
          await sql<{
            n: number;
          }>`select count(*)::int as n from audit_log where event = 'form.archived' and description like '%Atomic form%'`.execute(
            trx,
          )
        ).rows[0]!.n,
      }));
    expect(await state()).toEqual({ archived: false, audited: 0 });
    await archiveForm(t.deps, acme, published.id, owner);
    expect(await state()).toEqual({ archived: true, audited: 1 });
  });

  it('a title another form has is flagged with DUPLICATE_TITLE on save and publish, and both forms still publish', async () => {
    const first = await publish((await create('Home claim')).id);
    const second = await create('  home CLAIM ');
    expect(second.duplicateTitle).toMatchObject({ code: 'DUPLICATE_TITLE', forms: [{ id: first.id, title: 'Home claim' }] });
    const published = await publish(second.id);
    expect(published.duplicateTitle?.code).toBe('DUPLICATE_TITLE');
    const renamed = (await (
      await t.call('PUT', `/e-form/forms/${second.id}/draft`, { as: OWNER, body: { definition: form('Home claim (contents)') } })
    ).json()) as FormDetail;
    expect(renamed.duplicateTitle).toBeUndefined();
    // an archived form's title is free again
    const third = await create('Home claim (contents)');
    expect(third.duplicateTitle?.forms.map((f) => f.id)).toEqual([second.id]);
    expect((await t.call('POST', `/e-form/forms/${second.id}/close`, { as: OWNER })).status).toBe(200);
    expect((await t.call('POST', `/e-form/forms/${second.id}/archive`, { as: OWNER })).status).toBe(200);
    expect(
      ((await (await t.call('GET', `/e-form/forms/${third.id}`, { as: OWNER })).json()) as FormDetail).duplicateTitle,
    ).toBeUndefined();
  });

  it('supervisors cannot delete or archive forms', async () => {
    const draft = await create('Not theirs');
    expect((await t.call('DELETE', `/e-form/forms/${draft.id}`, { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('POST', `/e-form/forms/${draft.id}/archive`, { as: 'supervisor@acme.test' })).status).toBe(403);
  });
});
