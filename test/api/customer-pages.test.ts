import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { createLinkToken } from '../../api/customer-pages/links';
import type { AppId } from '../../api/contract/apps';
import { seedPasskeyHistory } from '../../api/apps/passkeys/seed';
import { seedEformHistory } from '../../api/apps/e-form/seed';
import { seedSignatureHistory } from '../../api/apps/document-signature/seed';
import { seedIdvHistory } from '../../api/apps/identity-verification/seed';

describe.each(DATABASE_KINDS)('Customer pages (%s)', (kind) => {
  const t = useTestContext(kind);
  const open = (path: string, host = 'localhost:3000') => t.app.request(path, { headers: { host } });

  it('an admin opens the preview from SMS content and sees the page in the account branding', async () => {
    const res = await t.call('GET', '/one-time-passcode/customer-page-preview', { as: 'owner@acme.test' });
    const { url } = (await res.json()) as { url: string };
    const page = await open(new URL(url).pathname);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('This is how your customers see your links');
    expect(html).toContain('Acme Support');
    expect(html).toContain('width=device-width');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(html).toContain(`nonce="${csp.match(/'nonce-([^']+)'/)![1]}"`);
  });

  it('unknown, expired and used links get a clear page and never a trace', async () => {
    const unknown = await open('/c/' + 'x'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This link does not work');
    expect((await open('/c/short')).status).toBe(404);
    const acme = t.account('acme').id;
    const expired = await t.db.tenant(acme, (trx) =>
      createLinkToken(trx, acme, {
        app: 'one-time-passcode',
        purpose: 'preview',
        ttlMs: 1000,
        now: new Date(t.clock.now.getTime() - 5000),
      }),
    );
    const page = await open(`/c/${expired.token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This link has expired');
    const used = await t.db.tenant(acme, (trx) =>
      createLinkToken(trx, acme, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 60_000, now: t.clock.now }),
    );
    await t.db.system((trx) => sql`update link_tokens set used_at = now() where expires_at = ${used.expiresAt}`.execute(trx));
    expect(await (await open(`/c/${used.token}`)).text()).toContain('already been used');
  });

  it("on an account's verified custom domain only that account's links open", async () => {
    const acme = t.account('acme').id;
    await t.db.system((trx) =>
      sql`update branding set domain = 'verify.globex.test', domain_is_verified = true where account_id = ${t.account('globex').id}`.execute(
        trx,
      ),
    );
    const link = await t.db.tenant(acme, (trx) =>
      createLinkToken(trx, acme, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 60_000, now: t.clock.now }),
    );
    expect((await open(`/c/${link.token}`, 'verify.globex.test')).status).toBe(404);
    expect((await open(`/c/${link.token}`)).status).toBe(200);
  });

  it.each(['verify.globex.test.', 'VERIFY.Globex.TEST', 'verify.globex.test:443', 'Verify.Globex.Test.:8443'])(
    "another account's domain written as %s is the same domain: Acme's link does not open there",
    async (host) => {
      const acme = t.account('acme').id;
      await t.db.system((trx) =>
        sql`update branding set domain = 'verify.globex.test', domain_is_verified = true where account_id = ${t.account('globex').id}`.execute(
          trx,
        ),
      );
      const link = await t.db.tenant(acme, (trx) =>
        createLinkToken(trx, acme, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 60_000, now: t.clock.now }),
      );
      expect((await open(`/c/${link.token}`, host)).status).toBe(404);
    },
  );
  // hono/jsx's own rendering runs in an AsyncLocalStorage context; on Node 20 the first one turns
  // on promise hooks for the whole process, and every promise of every request pays for them
  it("every app's page renders without an AsyncLocalStorage context (no promise hooks for the process)", async () => {
    const acme = t.account('acme').id;
    const deps = { ...t.deps, log: () => {} };
    const now = t.clock.now;
    await t.db.system(async (trx) => {
      for (const app of ['passkeys', 'document-signature', 'e-form', 'identity-verification']) {
        await sql`insert into app_billing (account_id, app, status, credits, free_tier) values (${acme}, ${app}, 'subscription', 0, 1000)
          on conflict (account_id, app) do update set status = 'subscription', free_tier = 1000`.execute(trx);
      }
    });
    // each app's tasks as its service makes them (the demo history)
    await seedPasskeyHistory(deps, { now });
    await seedEformHistory(deps, { perAccount: { 'acme.test': 1 }, now });
    await seedSignatureHistory(deps, { perAccount: 1, now });
    await seedIdvHistory(deps, { count: 1, now });
    const tasks: [AppId, string, string][] = [
      ['passkeys', 'passkey.enroll', 'passkey_tasks'],
      ['document-signature', 'document-signature.sign', 'sig_requests'],
      ['e-form', 'e-form.fill', 'eform_requests'],
      ['identity-verification', 'idv.capture', 'idv_sessions'],
    ];
    const links: string[] = [];
    for (const [app, purpose, table] of tasks) {
      // (identity verification's demo history is the provider's account)
      const row = (
        await t.db.system((trx) =>
          sql<{
            id: string;
            account_id: string;
          }>`select id, account_id from ${sql.table(table)} order by created_at desc limit 1`.execute(trx),
        )
      ).rows[0];
      expect(row, table).toBeDefined();
      const { id, account_id: accountId } = row!;
      links.push(
        (
          await t.db.tenant(accountId, (trx) =>
            createLinkToken(trx, accountId, { app, purpose, taskId: id, ttlMs: 60_000, now: t.clock.now }),
          )
        ).token,
      );
    }
    links.push(
      (
        await t.db.tenant(acme, (trx) =>
          createLinkToken(trx, acme, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 60_000, now: t.clock.now }),
        )
      ).token,
    );
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      for (const token of [...links, 'x'.repeat(43)]) {
        const page = await open(`/c/${token}`);
        expect(page.status, token).toBeLessThan(500);
        expect(await page.text()).toContain('</html>');
      }
      expect((await open('/terms')).status).toBe(200);
      expect(run).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
    }
  });
});
