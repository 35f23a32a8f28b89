import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { ADMIN, freshPhone, lastLink, page, publishedDocument, signaturesReady, v1 } from '../support/signature-flow';
import { sealRequest } from '../../api/apps/document-signature/service';
import { revokeSignerCopies } from '../../api/apps/document-signature/signer-copy';
import type { SigDocument, SigRequest } from '../../api/contract/apps/document-signature';

// The signer's copy of what they signed: the completion page links it at once, the link is
// texted to the number the request went to (no credit), it downloads the sealed PDF once sealing
// is done, it lasts SIGNER_COPY_DAYS, and erasure revokes it.

const COPY_LINK = /\/c\/([A-Za-z0-9_-]{43})/;

describe.each(DATABASE_KINDS)("the signer's copy (%s)", (kind) => {
  const t = useTestContext(kind, { signerCopyDays: 21 });
  let key: string;
  let doc: SigDocument;
  beforeAll(async () => {
    key = await signaturesReady(t);
    doc = await publishedDocument(t);
  });

  const outbox = async (to: string) =>
    ((await (await t.call('GET', '/dev/sms-outbox', { as: ADMIN })).json()) as { to: string; body: string }[]).filter(
      (m) => m.to === to,
    );
  const credits = async (taskId: string) =>
    (
      await t.db.tenant(t.account('acme').id, (trx) =>
        sql<{ n: number }>`select coalesce(sum(units), 0)::int as n from credit_ledger where task_id = ${taskId}`.execute(trx),
      )
    ).rows[0]!.n;

  /** A request signed through its page: the completion page's HTML and the request. */
  async function signed(locale?: string) {
    const phone = freshPhone();
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', {
        documentId: doc.id,
        phoneNumber: phone,
        signerName: 'Ada Lovelace',
        ...(locale ? { locale } : {}),
      })
    ).json()) as SigRequest;
    const token = await lastLink(t, phone);
    await page(t, token);
    const done = await page(t, token, {
      action: 'sign',
      sig_typed_sig1: 'Ada Lovelace',
      field_name1: 'Ada Lovelace',
      field_ok1: 'on',
      consent: 'on',
    });
    expect(done.status).toBe(200);
    return { phone, sent, html: await done.text() };
  }

  it('the completion page links the copy, which downloads the sealed PDF once it is sealed', async () => {
    const { sent, html } = await signed();
    expect(html).toContain('Download your signed copy');
    const copyToken = html.match(/href="\/c\/([A-Za-z0-9_-]{43})"/)![1]!;
    const preparing = await page(t, copyToken);
    // sealing may already have finished in the background; either it is being prepared or ready
    expect([200]).toContain(preparing.status);
    await sealRequest(t.deps, t.account('acme').id, sent.id);
    const ready = await (await page(t, copyToken)).text();
    expect(ready).toContain('Your signed copy of Service agreement is ready');
    const file = ready.match(/href="(\/api\/files\/[^"]+)"/)![1]!.replace(/&amp;/g, '&');
    const pdf = await t.app.request(file);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // the same bytes the console downloads as the signed file
    const files = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string;
    };
    expect(Buffer.from(await (await t.app.request(files.signedUrl)).arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('the copy link is texted to the number the request went to, in the signer’s language, and costs no credit', async () => {
    const before = Date.now();
    const { phone, sent } = await signed('fr');
    const messages = await outbox(phone);
    expect(messages).toHaveLength(2);
    const copy = messages.find((m) => m.body.includes('votre copie signée de Service agreement'))!;
    expect(copy.body).toMatch(COPY_LINK);
    expect(await credits(sent.id)).toBe(1);
    // valid SIGNER_COPY_DAYS (21 here), then the expired page
    const expires = await t.db.system((trx) =>
      sql<{ expires_at: Date }>`select expires_at from link_tokens where task_id = ${sent.id} and purpose = 'sign-copy'`.execute(
        trx,
      ),
    );
    const days = (new Date(expires.rows[0]!.expires_at).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(20.9);
    expect(days).toBeLessThan(21.1);
    const detail = (await (await t.call('GET', `/document-signature/tasks/${sent.id}`, { as: ADMIN })).json()) as {
      events: { type: string; description: string }[];
    };
    expect(detail.events.find((e) => e.type === 'copy_sent')?.description).toMatch(
      /^Link to the signed copy texted to .* \(valid 21 days\)$/,
    );
  });

  it("erasing the caller's data revokes the copy link: it answers the revoked page", async () => {
    const { phone, sent } = await signed();
    await sealRequest(t.deps, t.account('acme').id, sent.id);
    const copyToken = (await outbox(phone)).find((m) => m.body.includes('your signed copy'))!.body.match(COPY_LINK)![1]!;
    expect((await page(t, copyToken)).status).toBe(200);
    const revoked = await t.db.tenant(t.account('acme').id, (trx) =>
      revokeSignerCopies(trx, t.account('acme').id, [sent.id], new Date()),
    );
    expect(revoked).toBe(1);
    const after = await page(t, copyToken);
    expect(after.status).toBe(410);
    expect(await after.text()).not.toContain('/api/files/');
  });
});
