import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { makePdf } from '../support/pdfs';
import { pdfsig } from '../support/pades';
import {
  ACTIVE_CONTENT,
  SENTINELS,
  activeContentIn,
  cyclicPageTree,
  cyclicReferences,
  deepNesting,
  flateBomb,
  manyObjects,
  pdfWith,
  qpdfCheck,
  uncompressedText,
} from '../support/hostile-pdfs';
import { ADMIN, AGREE, NAME, SIGNATURE, signaturesReady, signedRequest, upload } from '../support/signature-flow';
import { sealRequest } from '../../api/apps/document-signature/service';
import { putFile } from '../../api/storage/files';
import type { SigDocument, SigRemovedContent, SigVersion } from '../../api/contract/apps/document-signature';

// Uploads built to hurt a PDF reader: the server reads them in a worker thread within a time, heap,
// object and expansion budget, so /api/health keeps answering and the upload gets a 4xx that says
// which budget it passed; and active content is taken out of what is stored and sealed, checked
// by qpdf, pdftotext and pdfsig rather than by our own parser.

/**
 * Uploads while asking /api/health again 25 ms after each answer: the upload's answer, and the
 * longest wait between two health answers (a blocked event loop shows here as seconds, since no
 * request starts or ends while it is blocked).
 */
async function uploadWhileProbing(t: TestContext, bytes: Uint8Array) {
  let finishedAt: number | null = null;
  const uploading = upload(t, bytes).finally(() => (finishedAt = performance.now()));
  let last = performance.now();
  let longestGapMs = 0;
  let probes = 0;
  while (finishedAt === null) {
    const res = await t.call('GET', '/health');
    expect(res.status).toBe(200);
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    probes++;
    await new Promise((r) => setTimeout(r, 25));
  }
  // the stretch from the last health answer to the upload's answer counts too
  longestGapMs = Math.max(longestGapMs, finishedAt - last);
  return { res: await uploading, longestGapMs, probes };
}

/** Sets PDF_* settings for one test (the limits are read on every task). */
async function withSettings<T>(t: TestContext, settings: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = { ...t.config.raw };
  Object.assign(t.config.raw, settings);
  try {
    return await run();
  } finally {
    for (const k of Object.keys(settings)) t.config.raw[k] = before[k];
  }
}

const storedFile = async (t: TestContext, doc: SigDocument) => {
  const version = (await (
    await t.call('GET', `/document-signature/documents/${doc.id}/versions/1`, { as: ADMIN })
  ).json()) as SigVersion;
  return { version, bytes: Buffer.from(await (await t.app.request(version.fileUrl)).arrayBuffer()) };
};

const pdftotext = (pdf: Uint8Array) => execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });

describe.each(DATABASE_KINDS)('Hostile PDF uploads (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  beforeAll(async () => {
    key = await signaturesReady(t);
  });

  it('a decompression bomb (96 MB of zeros in 100 KB) is refused with PDF_TOO_COMPLEX while /api/health keeps answering', async () => {
    const bomb = flateBomb(96);
    expect(bomb.length).toBeLessThan(200_000);
    const { res, longestGapMs, probes } = await uploadWhileProbing(t, bomb);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'PDF_TOO_COMPLEX',
      message: expect.stringMatching(/^A compressed part of this PDF expands to more than 64 MB\./),
    });
    expect(probes).toBeGreaterThan(0);
    expect(longestGapMs).toBeLessThan(1000);
  });

  it("a PDF of 150,000 objects (the review's 8 MB file) is refused with PDF_TOO_COMPLEX naming the limit, before it is parsed", async () => {
    const many = manyObjects(150_000);
    expect(many.length).toBeGreaterThan(8 * 1024 * 1024);
    const started = performance.now();
    const { res, longestGapMs } = await uploadWhileProbing(t, many);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'PDF_TOO_COMPLEX',
      message: expect.stringMatching(/^This PDF is made of more than 50,000 objects/),
    });
    // pdf-lib took 4 to 13 s to build these objects; counting them is linear in the bytes
    expect(performance.now() - started).toBeLessThan(3000);
    expect(longestGapMs).toBeLessThan(1000);
  });

  it('nesting 100,000 arrays deep and a page tree that contains itself are refused as damaged; references that loop elsewhere are read', async () => {
    for (const hostile of [deepNesting(100_000), cyclicPageTree()]) {
      const { res, longestGapMs } = await uploadWhileProbing(t, hostile);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'PDF_UNREADABLE' });
      expect(longestGapMs).toBeLessThan(1000);
    }
    const loops = await upload(t, cyclicReferences(), ADMIN, 'Loops');
    expect(loops.status).toBe(201);
    const { version, bytes } = await storedFile(t, (await loops.json()) as SigDocument);
    expect(version.pageCount).toBe(1);
    qpdfCheck(bytes);
  });

  it('past the time limit the worker is stopped and the upload refused (PDF_TOO_COMPLEX); /api/health answers meanwhile', async () => {
    // under the object limit, over a 200 ms budget: about a second of pdf-lib's parsing
    const slow = manyObjects(45_000);
    await withSettings(t, { PDF_TIME_LIMIT_MS: '200' }, async () => {
      const { res, longestGapMs, probes } = await uploadWhileProbing(t, slow);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'PDF_TOO_COMPLEX',
        message: expect.stringMatching(/^Reading this PDF took longer than 0.2 seconds/),
      });
      expect(probes).toBeGreaterThan(1);
      expect(longestGapMs).toBeLessThan(1000);
    });
    // the next upload gets a fresh worker, within the normal limit
    expect((await upload(t, await makePdf(1), ADMIN, 'After a stopped worker')).status).toBe(201);
  });

  it('past the heap limit the worker runs out of memory alone and the upload is refused (PDF_TOO_COMPLEX)', async () => {
    const big = manyObjects(45_000);
    await withSettings(t, { PDF_MEMORY_MB: '24' }, async () => {
      const { res, longestGapMs } = await uploadWhileProbing(t, big);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'PDF_TOO_COMPLEX',
        message: expect.stringMatching(/^Reading this PDF needs more than 24 MB of memory/),
      });
      expect(longestGapMs).toBeLessThan(1000);
    });
    expect((await upload(t, await makePdf(1), ADMIN, 'After a worker ran out of memory')).status).toBe(201);
  });

  it('more uploads at once than the workers and their queue: the rest answer 503 PDF_BUSY with Retry-After', async () => {
    const slow = manyObjects(40_000);
    await withSettings(t, { PDF_WORKERS: '1', PDF_QUEUE: '1' }, async () => {
      const answers = await Promise.all([
        upload(t, slow, ADMIN, 'One'),
        upload(t, slow, ADMIN, 'Two'),
        upload(t, slow, ADMIN, 'Three'),
      ]);
      const busy = answers.filter((r) => r.status === 503);
      expect(busy).toHaveLength(1);
      expect(busy[0]!.headers.get('retry-after')).toBe('5');
      expect(await busy[0]!.json()).toMatchObject({ code: 'PDF_BUSY' });
      expect(answers.filter((r) => r.status === 201)).toHaveLength(2);
    });
  });

  it('a PDF of more pages than a document may have (200) is refused with PDF_TOO_MANY_PAGES', async () => {
    const res = await upload(t, await makePdf(201, 'Long'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'PDF_TOO_MANY_PAGES',
      message: expect.stringContaining('more than 200 pages'),
    });
  });

  const KIND_OF: Record<(typeof ACTIVE_CONTENT)[number], SigRemovedContent[]> = {
    'open-action': ['open-action'],
    javascript: ['javascript'],
    launch: ['launch'],
    'event-actions': ['event-actions'],
    'embedded-files': ['embedded-files'],
    links: ['links'],
    xfa: ['xfa'],
  };

  it.each(ACTIVE_CONTENT)(
    '%s is taken out of the stored file (qpdf finds none of it); the text, the GoTo link and the outline stay; the version says what went',
    async (active) => {
      const original = await pdfWith(active);
      // the sample does carry what it is named for
      expect(activeContentIn(original)).not.toEqual([]);
      expect(uncompressedText(original)).toContain(SENTINELS[active]);
      const res = await upload(t, original, ADMIN, `Active ${active}`);
      expect(res.status).toBe(201);
      const { version, bytes } = await storedFile(t, (await res.json()) as SigDocument);
      expect(version.removedContent).toEqual(KIND_OF[active]);
      expect(activeContentIn(bytes)).toEqual([]);
      const text = uncompressedText(bytes);
      expect(text).not.toContain(SENTINELS[active]);
      expect(text).toContain('/GoTo');
      expect(text).toContain('/Outlines');
      qpdfCheck(bytes);
      expect(pdftotext(bytes)).toContain('Hostile agreement, page 2');
      const entry = await t.db.tenant(t.account('acme').id, (trx) =>
        sql<{
          description: string;
        }>`select description from audit_log where account_id = ${t.account('acme').id} and description like ${`Uploaded the document Active ${active} %`}`.execute(
          trx,
        ),
      );
      expect(entry.rows[0]!.description).toMatch(/; removed /);
    },
  );

  it('an upload with no active content is stored without a removal, and its version says none', async () => {
    const res = await upload(t, await makePdf(2, 'Plain'), ADMIN, 'Plain');
    const { version, bytes } = await storedFile(t, (await res.json()) as SigDocument);
    expect(version.removedContent).toEqual([]);
    expect(activeContentIn(bytes)).toEqual([]);
    expect(pdftotext(bytes)).toContain('Plain, page 2');
  });

  it('a document stored before uploads were cleaned, carrying every kind at once, is sealed clean: pdfsig valid, qpdf finds no active content', async () => {
    const acme = t.account('acme').id;
    const doc = (await (await upload(t, await makePdf(2), ADMIN, 'Stored long ago')).json()) as SigDocument;
    // the draft's file replaced by the hostile bytes as they were stored before this rule
    const hostile = await pdfWith(...ACTIVE_CONTENT);
    expect(activeContentIn(hostile).length).toBeGreaterThan(5);
    await t.db.tenant(acme, async (trx) => {
      const file = await putFile(t.deps, trx, acme, {
        app: 'document-signature',
        contentType: 'application/pdf',
        bytes: Buffer.from(hostile),
      });
      await sql`update sig_document_versions set file_id = ${file.id} where document_id = ${doc.id}`.execute(trx);
    });
    expect(
      (
        await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, {
          as: ADMIN,
          body: { name: 'Stored long ago', fields: [SIGNATURE, NAME, AGREE] },
        })
      ).status,
    ).toBe(200);
    expect((await t.call('POST', `/document-signature/documents/${doc.id}/publish`, { as: ADMIN, body: {} })).status).toBe(201);
    const sent = await signedRequest(t, key, doc, 'Ada Lovelace');
    const done = await sealRequest(t.deps, acme, sent.id);
    expect(done.status).toBe('completed');
    const files = (await (await t.call('GET', `/document-signature/signatures/${sent.id}/files`, { as: ADMIN })).json()) as {
      signedUrl: string;
    };
    const sealed = Buffer.from(await (await t.app.request(files.signedUrl)).arrayBuffer());
    expect(pdfsig(sealed)).toContain('Signature is Valid');
    expect(activeContentIn(sealed)).toEqual([]);
    const text = uncompressedText(sealed);
    for (const sentinel of Object.values(SENTINELS)) expect(text).not.toContain(sentinel);
    expect(pdftotext(sealed)).toContain('Ada Lovelace');
  });
});
