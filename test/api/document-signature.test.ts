import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { makeEncryptedPdf, makePdf } from '../support/pdfs';
import { pdfsig } from '../support/pades';
import {
  ADMIN,
  SIGNATURE,
  signaturesReady,
  freshPhone,
  lastLink,
  page,
  publishedDocument,
  upload,
  v1,
} from '../support/signature-flow';
import { expireDueRequests, sealRequest } from '../../api/apps/document-signature/service';
import { seedSignatureHistory } from '../../api/apps/document-signature/seed';
import { runRetention } from '../../api/privacy/retention';
import type { SigDocument, SigRequest, SigVersion } from '../../api/contract/apps/document-signature';
import type { ActionResult } from '../../api/contract/platform';

describe.each(DATABASE_KINDS)('Document Signature (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  beforeAll(async () => {
    key = await signaturesReady(t);
  });

  it('refuses a file that is not a PDF, an encrypted PDF and a damaged PDF, saying which', async () => {
    const notPdf = await upload(t, Buffer.from('Just some text, not a document.'));
    expect(notPdf.status).toBe(400);
    expect(await notPdf.json()).toMatchObject({ code: 'NOT_A_PDF', message: expect.stringContaining('not a PDF') });
    const encrypted = await upload(t, await makeEncryptedPdf());
    expect(encrypted.status).toBe(400);
    expect(await encrypted.json()).toMatchObject({ code: 'PDF_ENCRYPTED', message: expect.stringContaining('encrypted') });
    const damaged = await upload(t, Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\ngarbage without end'));
    expect(damaged.status).toBe(400);
    expect(await damaged.json()).toMatchObject({ code: 'PDF_UNREADABLE' });
    const large = await upload(t, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024 + 10, 32)]));
    expect(large.status).toBe(413);
    const docs = (await (await t.call('GET', '/document-signature/documents', { as: ADMIN })).json()) as SigDocument[];
    expect(docs).toHaveLength(0);
  });

  it('an X-File-Name that is not percent-encoded UTF-8, or carries a NUL, answers 400 naming the header; nothing is stored', async () => {
    const pdf = await makePdf(1);
    for (const fileName of ['%E0%A4%A', '%', '%ZZ', 'a%00b.pdf']) {
      const res = await upload(t, pdf, ADMIN, 'Bad name', fileName);
      expect(res.status, fileName).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'X-File-Name': expect.any(String) } });
    }
    const docs = (await (await t.call('GET', '/document-signature/documents', { as: ADMIN })).json()) as SigDocument[];
    expect(docs.filter((d) => d.name === 'Bad name')).toHaveLength(0);
    expect((await upload(t, pdf, ADMIN, 'Good name', encodeURIComponent('Vertrag für Müller.pdf'))).status).toBe(201);
  });

  it('a published version never changes: edits open version 2, and history names who and when', async () => {
    const doc = await publishedDocument(t);
    const v1doc = (await (
      await t.call('GET', `/document-signature/documents/${doc.id}/versions/1`, { as: ADMIN })
    ).json()) as SigVersion;
    expect(v1doc).toMatchObject({ state: 'published', version: 1, pageCount: 2, publishedBy: 'Olivia Owens' });
    expect(v1doc.fields).toHaveLength(3);
    // the database itself refuses to change a published version
    await expect(
      t.db.system((trx) =>
        sql`update sig_document_versions set name = 'changed' where document_id = ${doc.id} and version = 1`.execute(trx),
      ),
    ).rejects.toThrow(/cannot be changed/);
    const edited = await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, {
      as: ADMIN,
      body: { name: 'Service agreement 2026', fields: [SIGNATURE] },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ version: 2, state: 'draft', name: 'Service agreement 2026' });
    const again = (await (
      await t.call('GET', `/document-signature/documents/${doc.id}/versions/1`, { as: ADMIN })
    ).json()) as SigVersion;
    expect(again.name).toBe('Service agreement');
    expect(again.fields).toHaveLength(3);
    const history = (await (await t.call('GET', `/document-signature/documents/${doc.id}/history`, { as: ADMIN })).json()) as {
      versions: { version: number; state: string; publishedBy: string | null }[];
    };
    expect(history.versions.map((h) => [h.version, h.state])).toEqual([
      [2, 'draft'],
      [1, 'published'],
    ]);
  });

  it('a request for a draft version is refused; a request records the published version it sent', async () => {
    const doc = (await (await upload(t, await makePdf(1))).json()) as SigDocument;
    const draftOnly = await v1(t, key, 'POST', '/signatures', {
      documentId: doc.id,
      phoneNumber: freshPhone(),
      signerName: 'Ada Lovelace',
    });
    expect(draftOnly.status).toBe(409);
    expect(await draftOnly.json()).toMatchObject({ code: 'VERSION_NOT_PUBLISHED' });
    const published = await publishedDocument(t);
    await t.call('PUT', `/document-signature/documents/${published.id}/draft`, {
      as: ADMIN,
      body: { name: 'Next', fields: [SIGNATURE] },
    });
    const draft = await v1(t, key, 'POST', '/signatures', {
      documentId: published.id,
      version: 2,
      phoneNumber: freshPhone(),
      signerName: 'Ada Lovelace',
    });
    expect(draft.status).toBe(409);
    const sent = await v1(t, key, 'POST', '/signatures', {
      documentId: published.id,
      phoneNumber: freshPhone(),
      signerName: 'Ada Lovelace',
      customerRef: 'CUST-1',
    });
    expect(sent.status).toBe(201);
    expect(await sent.json()).toMatchObject({
      status: 'sent',
      version: 1,
      documentName: 'Service agreement',
      signerName: 'Ada Lovelace',
      sends: 1,
    });
  });

  it('the signer opens, signs, and the sealed PDF verifies with pdfsig; one changed byte breaks it', async () => {
    const doc = await publishedDocument(t);
    const phone = freshPhone();
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: 'Grace Hopper' })
    ).json()) as SigRequest;
    const token = await lastLink(t, phone);
    const view = await page(t, token);
    expect(view.status).toBe(200);
    const html = await view.text();
    expect(html).toContain('Grace Hopper');
    expect(html).toContain('I agree that my electronic signature');
    expect(((await (await v1(t, key, 'GET', `/signatures/${sent.id}`)).json()) as SigRequest).status).toBe('opened');

    // a required box left empty: 400, the page says which, nothing stored
    const missing = await page(t, token, {
      action: 'sign',
      sig_typed_sig1: 'Grace Hopper',
      field_name1: 'Grace Hopper',
      consent: 'on',
    });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('I read page 2: tick this box');

    const signed = await page(t, token, {
      action: 'sign',
      sig_typed_sig1: 'Grace B. Hopper',
      field_name1: 'Grace Brewster Hopper',
      field_ok1: 'on',
      consent: 'on',
    });
    expect(signed.status).toBe(200);
    expect(await signed.text()).toContain('Signed. Thank you');
    const done = await sealRequest(t.deps, t.account('acme').id, sent.id);
    expect(done.status).toBe('completed');
    expect(done.signedSha256).toMatch(/^[0-9a-f]{64}$/);

    const files = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string;
      originalUrl: string;
    };
    const sealed = Buffer.from(await (await t.app.request(files.signedUrl)).arrayBuffer());
    const report = pdfsig(sealed);
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('ETSI.CAdES.detached');
    const text = execFileSync('pdftotext', ['-', '-'], { input: sealed, encoding: 'utf8' });
    expect(text).toContain('Grace Brewster Hopper');
    expect(text).toContain('Certificate of completion');
    expect(text).toContain('203.0.113.9');
    expect(text).toContain('Mozilla/5.0 (Signer phone)');
    expect(text).toContain(done.originalSha256);

    // change one byte inside the signed range (a letter of the document information)
    const at = sealed.indexOf('/Producer');
    expect(at).toBeGreaterThan(0);
    const tampered = Buffer.from(sealed);
    tampered[at + 2] = tampered[at + 2]! ^ 0x01;
    const broken = pdfsig(tampered);
    expect(broken).toContain('Signature Validation: Digest Mismatch');
    expect(broken).not.toContain('Signature is Valid');

    // sealing again starts from the original: the completed request is left as it is
    expect((await sealRequest(t.deps, t.account('acme').id, sent.id)).signedSha256).toBe(done.signedSha256);
    const original = Buffer.from(await (await t.app.request(files.originalUrl)).arrayBuffer());
    expect(execFileSync('pdftotext', ['-', '-'], { input: original, encoding: 'utf8' })).not.toContain('Grace Brewster Hopper');

    // the timeline is the audit trail
    const detail = (await (await t.call('GET', `/document-signature/tasks/${sent.id}`, { as: ADMIN })).json()) as {
      events: { type: string; ip: string | null }[];
    };
    expect(detail.events.map((e) => e.type)).toEqual(['sent', 'language', 'opened', 'signed', 'copy_sent', 'completed']);
    // the link is spent
    expect((await page(t, token)).status).toBe(410);
  });

  it("the downloads are named after the document as written, '<name> (signed).pdf', in any script through RFC 6266 filename*", async () => {
    const nameOf = (header: string | null) =>
      decodeURIComponent(header!.match(/filename\*=UTF-8''([^;]+)/)?.[1] ?? header!.match(/filename="([^"]*)"/)![1]!);
    for (const name of ['agreement', 'Договор «Б» (v2)']) {
      const doc = (await (await upload(t, await makePdf(1), ADMIN, name)).json()) as SigDocument;
      expect(
        (
          await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, {
            as: ADMIN,
            body: { name, fields: [{ ...SIGNATURE, id: 'sig1' }] },
          })
        ).status,
      ).toBe(200);
      expect((await t.call('POST', `/document-signature/documents/${doc.id}/publish`, { as: ADMIN, body: {} })).status).toBe(201);
      const phone = freshPhone();
      const sent = (await (
        await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: 'Ada Lovelace' })
      ).json()) as SigRequest;
      expect(
        (await page(t, await lastLink(t, phone), { action: 'sign', sig_typed_sig1: 'Ada Lovelace', consent: 'on' })).status,
      ).toBe(200);
      expect((await sealRequest(t.deps, t.account('acme').id, sent.id)).status).toBe('completed');
      const files = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
        signedUrl: string;
        originalUrl: string;
      };
      const signed = (await t.app.request(files.signedUrl)).headers.get('content-disposition');
      const original = (await t.app.request(files.originalUrl)).headers.get('content-disposition');
      if (name === 'agreement') expect(signed).toBe('attachment; filename="agreement (signed).pdf"');
      else expect(signed).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
      expect(nameOf(signed)).toBe(`${name} (signed).pdf`);
      expect(nameOf(original)).toBe(`${name} (original).pdf`);
    }
  });

  it('past the retention days of completed documents the signed PDF is deleted; the request and the document stay', async () => {
    const doc = await publishedDocument(t);
    const phone = freshPhone();
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: 'Ada Lovelace' })
    ).json()) as SigRequest;
    const token = await lastLink(t, phone);
    expect(
      (
        await page(t, token, {
          action: 'sign',
          sig_typed_sig1: 'Ada',
          field_name1: 'Ada Lovelace',
          field_ok1: 'on',
          consent: 'on',
        })
      ).status,
    ).toBe(200);
    await sealRequest(t.deps, t.account('acme').id, sent.id);
    const acme = t.account('acme').id;
    await t.db.system((trx) =>
      sql`insert into storage_settings (account_id, retention) values (${acme}, '{"document-signature.completed": 30}') on conflict (account_id) do update set retention = excluded.retention`.execute(
        trx,
      ),
    );

    // not yet: 29 days on, nothing is deleted
    const start = t.clock.now;
    t.clock.now = new Date(start.getTime() + 29 * 86_400_000);
    await runRetention(t.deps);
    const kept = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string;
    };
    expect((await t.app.request(kept.signedUrl)).status).toBe(200);

    const signedFileId = (
      await t.db.system((trx) =>
        trx.selectFrom('sig_requests').select('signed_file_id').where('id', '=', sent.id).executeTakeFirstOrThrow(),
      )
    ).signed_file_id!;
    t.clock.now = new Date(start.getTime() + 31 * 86_400_000);
    expect((await runRetention(t.deps)).get(acme)?.['document-signature.completed']).toBeGreaterThanOrEqual(1);
    const after = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string | null;
      originalUrl: string;
    };
    expect(after.signedUrl).toBeNull();
    const file = await t.db.system((trx) =>
      trx.selectFrom('stored_files').select(['deleted_at', 'bytes']).where('id', '=', signedFileId).executeTakeFirstOrThrow(),
    );
    expect(file.deleted_at).not.toBeNull();
    expect(file.bytes).toBeNull();
    // the request keeps its status and timeline; the version's PDF other requests use is kept
    const detail = (await (await t.call('GET', `/document-signature/tasks/${sent.id}`, { as: ADMIN })).json()) as {
      status?: string;
      events: { type: string }[];
    };
    expect(detail.events.map((e) => e.type)).toContain('files_deleted');
    expect((await t.app.request(after.originalUrl)).status).toBe(200);
    expect(((await (await v1(t, key, 'GET', `/signatures/${sent.id}`)).json()) as SigRequest).status).toBe('completed');
    // a second run deletes nothing more
    expect((await runRetention(t.deps)).get(acme)?.['document-signature.completed']).toBeUndefined();
    t.clock.now = start;
    await t.db.system((trx) => sql`delete from storage_settings where account_id = ${acme}`.execute(trx));
  });

  it('a signer can decline with a reason; the webhook says so', async () => {
    const doc = await publishedDocument(t);
    await t.call('POST', '/document-signature/webhooks', {
      as: ADMIN,
      body: { url: 'https://example.com/hook', eventTypes: ['document.declined'], enabled: true },
    });
    const phone = freshPhone();
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: 'Alan Turing' })
    ).json()) as SigRequest;
    const token = await lastLink(t, phone);
    expect((await page(t, token, { action: 'decline', reason: '' })).status).toBe(400);
    const declined = await page(t, token, { action: 'decline', reason: 'The fee is wrong' });
    expect(declined.status).toBe(200);
    const got = (await (await v1(t, key, 'GET', `/signatures/${sent.id}`)).json()) as SigRequest;
    expect(got).toMatchObject({ status: 'declined', declineReason: 'The fee is wrong' });
    const events = await t.db.system((trx) =>
      sql<{
        type: string;
        payload: { data: { id: string } };
      }>`select type, payload from webhook_events where type = 'document.declined'`.execute(trx),
    );
    expect(events.rows.some((e) => e.payload.data.id === sent.id)).toBe(true);
  });

  it('a request nobody signs expires after its days (fake clock); cancel and resend only while open', async () => {
    const doc = await publishedDocument(t);
    const phone = freshPhone();
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', {
        documentId: doc.id,
        phoneNumber: phone,
        signerName: 'Edsger Dijkstra',
        expiresInDays: 2,
      })
    ).json()) as SigRequest;
    const firstToken = await lastLink(t, phone);
    const resent = await v1(t, key, 'POST', `/signatures/${sent.id}/resend`, {});
    expect(resent.status).toBe(200);
    expect(await resent.json()).toMatchObject({ sends: 2 });
    expect((await page(t, firstToken)).status).toBe(410);
    const saved = t.clock.now;
    t.clock.now = new Date(saved.getTime() + 2 * 86_400_000 + 1000);
    try {
      expect(await expireDueRequests(t.deps)).toBeGreaterThanOrEqual(1);
      expect(((await (await v1(t, key, 'GET', `/signatures/${sent.id}`)).json()) as SigRequest).status).toBe('expired');
      expect((await v1(t, key, 'POST', `/signatures/${sent.id}/cancel`, {})).status).toBe(409);
    } finally {
      t.clock.now = saved;
    }
    const other = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: freshPhone(), signerName: 'Barbara Liskov' })
    ).json()) as SigRequest;
    const cancelled = await t.call('POST', '/document-signature/actions/cancel', {
      as: ADMIN,
      body: { taskId: other.id, input: {} },
    });
    expect(cancelled.status).toBe(201);
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled' });
  });

  it("the agent's panel follows a request until it is sealed, offering resend and cancel only while the signer can act", async () => {
    const doc = await publishedDocument(t);
    const phone = freshPhone();
    const status = async (id: string) =>
      (await (await t.call('GET', `/document-signature/tasks/${id}/status`, { as: ADMIN })).json()) as ActionResult;
    const sent = await t.call('POST', '/document-signature/actions/send', {
      as: ADMIN,
      body: { input: { documentId: doc.id, phoneNumber: phone, signerName: 'Ada Lovelace' } },
    });
    expect(sent.status).toBe(201);
    const first = (await sent.json()) as ActionResult;
    // followed (open) with every follow-up (no followUps list)
    expect(first).toMatchObject({ status: 'sent', open: true });
    expect(first.followUps).toBeUndefined();
    const token = await lastLink(t, phone);
    expect((await page(t, token)).status).toBe(200);
    expect(await status(first.taskId)).toMatchObject({ status: 'opened', open: true });
    expect((await status(first.taskId)).followUps).toBeUndefined();
    // signed, not yet sealed: still followed (it completes moments later), nothing left to resend or cancel
    const signing = await page(t, token, {
      action: 'sign',
      sig_typed_sig1: 'Ada Lovelace',
      field_name1: 'Ada Lovelace',
      field_ok1: 'on',
      consent: 'on',
    });
    expect(signing.status).toBe(200);
    expect(await status(first.taskId)).toMatchObject({
      status: 'signed',
      open: true,
      followUps: [],
      message: 'Ada Lovelace signed: the document is being sealed.',
    });
    await sealRequest(t.deps, t.account('acme').id, first.taskId);
    const completed = await status(first.taskId);
    expect(completed).toMatchObject({
      status: 'completed',
      open: false,
      followUps: [],
      message: 'Ada Lovelace signed: the sealed document is ready.',
    });
  });

  it("another account's documents and requests are not found", async () => {
    const doc = await publishedDocument(t);
    const sent = (await (
      await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: freshPhone(), signerName: 'Ken Thompson' })
    ).json()) as SigRequest;
    const other = 'owner@globex.test';
    expect((await t.call('GET', `/document-signature/documents/${doc.id}/versions/1`, { as: other })).status).toBe(404);
    expect((await t.call('GET', `/document-signature/documents/${doc.id}/history`, { as: other })).status).toBe(404);
    expect(
      (await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, { as: other, body: { name: 'x', fields: [] } }))
        .status,
    ).toBe(404);
    expect((await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: other })).status).toBe(404);
    const globexKey = ((await (await t.call('GET', '/accounts/developer', { as: other })).json()) as { secretKey: string })
      .secretKey;
    expect((await v1(t, globexKey, 'GET', `/signatures/${sent.id}`)).status).toBe(404);
  });

  it('with nothing signed in the period, the median time to sign is no figure ("—"), not 0 minutes', async () => {
    // Globex has not sent a signature request: a period with nothing signed
    const dash = (await (await t.call('GET', '/document-signature/dashboard?days=7', { as: 'owner@globex.test' })).json()) as {
      tiles: { key: string; value: number | null }[];
    };
    expect(dash.tiles.find((x) => x.key === 'completed')!.value).toBe(0);
    expect(dash.tiles.find((x) => x.key === 'median')!.value).toBeNull();
  });

  it('the dashboard counts sent and completed requests and the list shows them', async () => {
    const dash = await t.call('GET', '/document-signature/dashboard?days=7', { as: ADMIN });
    expect(dash.status).toBe(200);
    const body = (await dash.json()) as { tiles: { key: string; value: number }[]; series: { key: string }[] };
    expect(body.tiles.find((x) => x.key === 'sent')!.value).toBeGreaterThan(0);
    expect(body.tiles.find((x) => x.key === 'completed')!.value).toBeGreaterThanOrEqual(1);
    expect(body.series.map((s) => s.key)).toContain('completed');
  });

  it('the dashboard names each figure once: the Sent and Completed lines are the tiles, day by day', async () => {
    const dash = (await (await t.call('GET', '/document-signature/dashboard?days=7', { as: ADMIN })).json()) as {
      tiles: { label: string; value: number }[];
      series: { label: string; points: { value: number }[] }[];
    };
    // every line is named as a tile and sums to it (a "Sent" line of requests still in status sent read 0 beside a tile of 12)
    for (const line of dash.series) {
      const tile = dash.tiles.find((x) => x.label === line.label);
      expect(tile, line.label).toBeDefined();
      expect(
        line.points.reduce((n, p) => n + p.value, 0),
        line.label,
      ).toBe(tile!.value);
    }
    expect(dash.series.map((s) => s.label)).toEqual(['Sent', 'Completed']);
    const list = await t.call('GET', '/document-signature/tasks', { as: ADMIN });
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('x-count'))).toBeGreaterThan(0);
  });

  it('the demo seed gives an active account a published document and a month of requests in every state', async () => {
    const started = Date.now();
    const made = await seedSignatureHistory(t.deps, { now: t.clock.now });
    expect(made).toBeGreaterThan(0);
    const rows = await t.db.system((trx) =>
      sql<{
        status: string;
        n: number;
      }>`select r.status, count(*)::int as n from sig_requests r join accounts a on a.id = r.account_id
        where a.email_domain = 'umbrella.test' group by 1`.execute(trx),
    );
    const by = Object.fromEntries(rows.rows.map((r) => [r.status, r.n]));
    expect(by.completed).toBeGreaterThan(3);
    expect(Object.keys(by).length).toBeGreaterThanOrEqual(3);
    // again changes nothing: an account that has documents is left alone
    expect(await seedSignatureHistory(t.deps, { now: t.clock.now })).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
