import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';
import { seedEformHistory } from '../../api/apps/e-form/seed';
import type { FormSummary, SubmissionPage } from '../../api/contract/apps/e-form';

describe.each(BOTH_DATABASE_KINDS)('eForm demo history (%s)', (kind) => {
  const t = useTestContext(kind);

  it('is made by the service: published forms, requests sent, opened and submitted, with credits and a dashboard that agree', async () => {
    const made = await seedEformHistory({ ...t.deps, log: () => {} }, { perAccount: { 'acme.test': 20 }, now: t.clock.now });
    expect(made).toBe(20);
    const forms = (await (await t.call('GET', '/e-form/forms', { as: 'owner@acme.test' })).json()) as FormSummary[];
    expect(forms.map((f) => [f.title, f.status, f.version]).sort()).toEqual([
      ['Change of address', 'published', 1],
      ['Damage claim', 'published', 1],
    ]);
    const submitted = forms.reduce((sum, f) => sum + f.submissions, 0);
    expect(submitted).toBeGreaterThan(8);
    const claim = forms.find((f) => f.title === 'Damage claim')!;
    const page = (await (
      await t.call('GET', `/e-form/submissions?formId=${claim.id}&status=submitted`, { as: 'owner@acme.test' })
    ).json()) as SubmissionPage;
    expect(page.rows.length).toBe(claim.submissions);
    expect(page.rows.every((r) => r.answers?.caseId && r.answers.kind)).toBe(true);
    const acme = t.account('acme').id;
    const credits = await t.db.system((trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from credit_ledger where account_id = ${acme} and app = 'e-form' and kind <> 'opening'`.execute(
        trx,
      ),
    );
    expect(credits.rows[0]!.n).toBe(20);
    const dashboard = (await (await t.call('GET', '/e-form/dashboard?days=30', { as: 'owner@acme.test' })).json()) as {
      tiles: { key: string; value: number }[];
    };
    expect(dashboard.tiles.find((k) => k.key === 'sent')!.value).toBe(20);
  });
});
