import { sql, type Selectable } from 'kysely';
import type { SigDocumentVersionsTable } from '../../db/schema';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit, type Actor } from '../../audit';
import { ApiError } from '../../http/errors';
import { fileLink, putFile, readFile } from '../../storage/files';
import { ACTION_CHOICES_LIMIT, type ActionChoicesAnswer } from '../../contract/platform';
import { choicesAnswer, matchesChoice } from '../platform/choices';
import { runPdfTask } from './pdf-sandbox';
import { PDF_PROBLEM_CODES, PdfRefused, pdfConcurrency, pdfLimits } from './pdf-limits';
import type { InspectedPdf } from './pdf';
import {
  SIG_APP,
  SIG_REMOVED_CONTENT,
  type SigRemovedContent,
  SIG_MAX_PAGE_IMAGE_BYTES,
  SIG_MAX_PDF_BYTES,
  type SigDocument,
  type SigDraftBody,
  type SigField,
  type SigHistoryEntry,
  type SigPublishBody,
  type SigVersion,
} from '../../contract/apps/document-signature';

// Documents and their versions. An upload makes a document with a draft (version 1); the draft
// is edited (name, fields) until Publish makes it immutable (the database refuses changes to a
// published row); the next edit opens a new draft copied from the newest published version.

/** A row of sig_document_versions as `select *` reads it; `fields` is jsonb the editor wrote (the contract's SigField). */
export type VersionRow = Omit<Selectable<SigDocumentVersionsTable>, 'fields'> & { fields: SigField[] };

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const actorName = (actor: Actor) => (actor ? `${actor.firstName} ${actor.lastName}`.trim() : 'Provider staff');
const notFound = () => new ApiError(404, 'NOT_FOUND', 'There is no such document.');

function versionOf(deps: Deps, accountId: string, r: VersionRow): SigVersion {
  return {
    documentId: r.document_id,
    version: r.version,
    state: r.state,
    name: r.name,
    fileName: r.file_name,
    pageCount: r.page_count,
    pages: r.page_sizes,
    fields: r.fields,
    hasPageImages: r.page_image_ids.length > 0,
    createdAt: iso(r.created_at)!,
    createdBy: r.created_by,
    publishedAt: iso(r.published_at),
    publishedBy: r.published_by,
    fileUrl: fileLink(deps, accountId, r.file_id, { ttlSeconds: 900, filename: r.file_name, disposition: 'inline' }),
    removedContent: r.removed_content as SigRemovedContent[],
  };
}

/**
 * Refuses anything but a readable, unencrypted PDF of at most 20 MB within the reading limits,
 * saying which; answers its pages and the file to store, without its active content. The file is
 * read in the PDF worker (pdf-sandbox.ts), never on the server's thread.
 */
export async function checkedPdf(deps: Deps, bytes: Uint8Array): Promise<InspectedPdf> {
  if (bytes.length === 0) throw new ApiError(400, 'PDF_EMPTY', 'The file is empty.');
  if (bytes.length > SIG_MAX_PDF_BYTES) throw new ApiError(413, 'PDF_TOO_LARGE', 'The PDF is larger than 20 MB.');
  try {
    return await runPdfTask({ kind: 'inspect', bytes }, pdfLimits(deps.config), pdfConcurrency(deps.config));
  } catch (err) {
    if (err instanceof PdfRefused) throw new ApiError(400, PDF_PROBLEM_CODES[err.problem], err.message);
    throw err;
  }
}

const removedText = (removed: readonly SigRemovedContent[]) =>
  removed.length ? `; removed ${removed.map((r) => SIG_REMOVED_CONTENT[r]).join(', ')}` : '';

export async function uploadDocument(
  deps: Deps,
  accountId: string,
  input: { name?: string | null; fileName: string; bytes: Uint8Array },
  actor: Actor,
): Promise<SigDocument> {
  const info = await checkedPdf(deps, input.bytes);
  const now = deps.now();
  const fileName = input.fileName.replace(/[^\w.\- ]/g, '_').slice(0, 200) || 'document.pdf';
  const name = input.name?.trim() || fileName.replace(/\.pdf$/i, '') || 'Untitled document';
  return deps.db.tenant(accountId, async (trx) => {
    // what is stored is the file as the worker wrote it again, without active content
    const file = await putFile(deps, trx, accountId, { app: SIG_APP, contentType: 'application/pdf', bytes: info.cleaned });
    const by = actorName(actor);
    const doc = await trx
      .insertInto('sig_documents')
      .values({ account_id: accountId, name, created_at: now, created_by: by, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into sig_document_versions (account_id, document_id, version, state, name, file_id, file_name, page_count, page_sizes, removed_content, created_at, created_by)
      values (${accountId}, ${doc.id}, 1, 'draft', ${name}, ${file.id}, ${fileName}, ${info.pageCount}, ${JSON.stringify(info.pages)}::jsonb, ${info.removed}::text[], ${now}, ${by})`.execute(
      trx,
    );
    await audit(trx, accountId, actor, {
      namespace: SIG_APP,
      description: `Uploaded the document ${name} (${info.pageCount} pages${removedText(info.removed)})`,
      event: 'document.uploaded',
      at: now,
    });
    return (await documentsOf(trx, accountId, doc.id))[0]!;
  });
}

async function documentsOf(trx: Trx, accountId: string, onlyId?: string): Promise<SigDocument[]> {
  const rows = await sql<{
    id: string;
    name: string;
    created_at: Date;
    updated_at: Date;
    published: number | null;
    draft: number | null;
    requests: number;
  }>`
    select d.id, d.name, d.created_at, d.updated_at,
      (select max(version) from sig_document_versions v where v.document_id = d.id and v.state = 'published') as published,
      (select version from sig_document_versions v where v.document_id = d.id and v.state = 'draft') as draft,
      (select count(*)::int from sig_requests r where r.account_id = d.account_id and r.document_id = d.id) as requests
    from sig_documents d where d.account_id = ${accountId} ${onlyId ? sql`and d.id = ${onlyId}` : sql``}
    order by d.updated_at desc, d.id desc limit 500`.execute(trx);
  return rows.rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    publishedVersion: r.published,
    draftVersion: r.draft,
    requests: r.requests,
  }));
}

export async function listDocuments(deps: Deps, accountId: string): Promise<SigDocument[]> {
  return deps.db.tenant(accountId, (trx) => documentsOf(trx, accountId));
}

/** The documents an agent can send (a published version), newest publication first, for the picker. */
export async function sendableDocuments(deps: Pick<Deps, 'db'>, accountId: string, q: string): Promise<ActionChoicesAnswer> {
  const rows = await deps.db.tenant(accountId, (trx) =>
    sql<{ id: string; name: string; version: number; published_at: Date }>`
      select d.id, v.name, v.version, v.published_at
      from sig_documents d
      join lateral (select version, name, published_at from sig_document_versions v
        where v.account_id = d.account_id and v.document_id = d.id and v.state = 'published' order by version desc limit 1) v on true
      where d.account_id = ${accountId} and ${matchesChoice(sql.ref('v.name'), sql.ref('d.id'), q)}
      order by v.published_at desc, v.name, d.id limit ${ACTION_CHOICES_LIMIT + 1}`.execute(trx),
  );
  return choicesAnswer(rows.rows.map((r) => ({ id: r.id, title: r.name, version: r.version, editedAt: iso(r.published_at)! })));
}

export async function versionRow(
  trx: Trx,
  accountId: string,
  documentId: string,
  version: number | 'draft' | 'published',
): Promise<VersionRow | undefined> {
  const which =
    version === 'draft' ? sql`state = 'draft'` : version === 'published' ? sql`state = 'published'` : sql`version = ${version}`;
  return (
    await sql<VersionRow>`select * from sig_document_versions where account_id = ${accountId} and document_id = ${documentId} and ${which}
      order by version desc limit 1`.execute(trx)
  ).rows[0];
}

export async function getVersion(
  deps: Deps,
  accountId: string,
  documentId: string,
  version: number | 'draft' | 'published',
): Promise<SigVersion> {
  const row = await deps.db.tenant(accountId, (trx) => versionRow(trx, accountId, documentId, version));
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such document version.');
  return versionOf(deps, accountId, row);
}

export async function documentHistory(
  deps: Deps,
  accountId: string,
  documentId: string,
): Promise<{ document: SigDocument; versions: SigHistoryEntry[] }> {
  return deps.db.tenant(accountId, async (trx) => {
    const document = (await documentsOf(trx, accountId, documentId))[0];
    if (!document) throw notFound();
    const rows = (
      await sql<VersionRow>`select * from sig_document_versions where account_id = ${accountId} and document_id = ${documentId} order by version desc`.execute(
        trx,
      )
    ).rows;
    return {
      document,
      versions: rows.map((r) => ({
        version: r.version,
        state: r.state,
        createdAt: iso(r.created_at)!,
        createdBy: r.created_by,
        publishedAt: iso(r.published_at),
        publishedBy: r.published_by,
        fields: r.fields.length,
      })),
    };
  });
}

/** The draft, opened from the newest published version when there is none. */
async function draftFor(trx: Trx, accountId: string, documentId: string, now: Date, by: string): Promise<VersionRow> {
  await sql`select id from sig_documents where account_id = ${accountId} and id = ${documentId} for update`.execute(trx);
  const draft = await versionRow(trx, accountId, documentId, 'draft');
  if (draft) return draft;
  const latest = await versionRow(trx, accountId, documentId, 'published');
  if (!latest) throw notFound();
  return (
    await sql<VersionRow>`insert into sig_document_versions (account_id, document_id, version, state, name, file_id, file_name, page_count, page_sizes, fields, removed_content, created_at, created_by)
      values (${accountId}, ${documentId}, ${latest.version + 1}, 'draft', ${latest.name}, ${latest.file_id}, ${latest.file_name}, ${latest.page_count},
              ${JSON.stringify(latest.page_sizes)}::jsonb, ${JSON.stringify(latest.fields)}::jsonb, ${latest.removed_content}::text[], ${now}, ${by})
      returning *`.execute(trx)
  ).rows[0]!;
}

export async function saveDraft(
  deps: Deps,
  accountId: string,
  documentId: string,
  body: SigDraftBody,
  actor: Actor,
): Promise<SigVersion> {
  const now = deps.now();
  const row = await deps.db.tenant(accountId, async (trx) => {
    const draft = await draftFor(trx, accountId, documentId, now, actorName(actor));
    const outside = body.fields.find((f) => f.page >= draft.page_count);
    if (outside)
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        `fields: the field ${outside.id} is on page ${outside.page + 1}, but the document has ${draft.page_count}`,
        { fields: `The field ${outside.id} is on a page the document does not have` },
      );
    const updated = (
      await sql<VersionRow>`update sig_document_versions set name = ${body.name}, fields = ${JSON.stringify(body.fields)}::jsonb where id = ${draft.id} returning *`.execute(
        trx,
      )
    ).rows[0]!;
    await sql`update sig_documents set name = ${body.name}, updated_at = ${now} where id = ${documentId}`.execute(trx);
    await audit(trx, accountId, actor, {
      namespace: SIG_APP,
      description: `Edited the draft of ${body.name} (version ${draft.version}, ${body.fields.length} fields)`,
      event: 'document.draft-saved',
      at: now,
    });
    return updated;
  });
  return versionOf(deps, accountId, row);
}

function jpegOf(dataUrl: string): Buffer {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > SIG_MAX_PAGE_IMAGE_BYTES)
    throw new ApiError(400, 'VALIDATION_FAILED', 'pageImages: a page image is larger than 1 MB', {
      pageImages: 'A page image is larger than 1 MB',
    });
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8)
    throw new ApiError(400, 'VALIDATION_FAILED', 'pageImages: a page image is not a JPEG', {
      pageImages: 'A page image is not a JPEG',
    });
  return bytes;
}

/** Publishes the draft: it becomes version N, for good. */
export async function publishDraft(
  deps: Deps,
  accountId: string,
  documentId: string,
  body: SigPublishBody,
  actor: Actor,
): Promise<SigVersion> {
  const now = deps.now();
  const row = await deps.db.tenant(accountId, async (trx) => {
    await sql`select id from sig_documents where account_id = ${accountId} and id = ${documentId} for update`.execute(trx);
    const draft = await versionRow(trx, accountId, documentId, 'draft');
    if (!draft) {
      if (await versionRow(trx, accountId, documentId, 'published'))
        throw new ApiError(409, 'NOTHING_TO_PUBLISH', 'There is no draft to publish: every change is already published.');
      throw notFound();
    }
    if (!draft.fields.some((f) => f.kind === 'signature'))
      throw new ApiError(409, 'NO_SIGNATURE_FIELD', 'Place at least one signature field before publishing.');
    const images = body.pageImages ?? [];
    if (images.length && images.length !== draft.page_count) {
      throw new ApiError(400, 'VALIDATION_FAILED', `pageImages: ${images.length} page images for ${draft.page_count} pages`, {
        pageImages: `Give one image per page (${draft.page_count})`,
      });
    }
    const small = body.pageImagesSmall ?? [];
    if (small.length && small.length !== images.length) {
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        `pageImagesSmall: ${small.length} small page images for ${images.length} page images`,
        { pageImagesSmall: `Give one small image per page image (${images.length})` },
      );
    }
    const ids: string[] = [];
    for (const image of images)
      ids.push((await putFile(deps, trx, accountId, { app: SIG_APP, contentType: 'image/jpeg', bytes: jpegOf(image) })).id);
    const smallIds: string[] = [];
    for (const image of small)
      smallIds.push((await putFile(deps, trx, accountId, { app: SIG_APP, contentType: 'image/jpeg', bytes: jpegOf(image) })).id);
    const by = actorName(actor);
    const published = (
      await sql<VersionRow>`update sig_document_versions set state = 'published', published_at = ${now}, published_by = ${by}, page_image_ids = ${JSON.stringify(ids)}::jsonb,
        page_image_small_ids = ${JSON.stringify(smallIds)}::jsonb
        where id = ${draft.id} returning *`.execute(trx)
    ).rows[0]!;
    await sql`update sig_documents set updated_at = ${now} where id = ${documentId}`.execute(trx);
    await audit(trx, accountId, actor, {
      namespace: SIG_APP,
      description: `Published ${draft.name} version ${draft.version}`,
      event: 'document.published',
      at: now,
    });
    return published;
  });
  return versionOf(deps, accountId, row);
}

/** The original PDF of a version (for sealing and downloads). */
export async function versionFile(deps: Deps, trx: Trx, accountId: string, fileId: string): Promise<Buffer> {
  const file = await readFile(deps, trx, accountId, fileId);
  if (!file) throw new ApiError(410, 'FILE_GONE', 'The document file no longer exists (removed by retention).');
  return file.bytes;
}
