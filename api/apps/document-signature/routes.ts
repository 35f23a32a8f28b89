import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import { percentDecodedHeader } from '../../http/text-guard';
import { actorOf } from '../../audit';
import { ApiError } from '../../http/errors';
import { validate } from '../../http/validate';
import {
  SIG_MAX_PDF_BYTES,
  SigCertificateUploadSchema,
  SigDraftBodySchema,
  SigPublishBodySchema,
  SigUploadQuerySchema,
} from '../../contract/apps/document-signature';
import { uuidParam } from '../platform/request';
import { documentHistory, getVersion, listDocuments, publishDraft, saveDraft, uploadDocument } from './documents';
import { requestFiles } from './service';

const certificates = () => import('./account-certificates');

// The console routes of Document Signature beyond the shared frame: documents (admins) and the
// signature detail's downloads, and the account's own signing certificates (admins). Uploads and publishes carry files, so they have their own body
// limits instead of raising the API's 1 MB for everyone.

/** Paths (under /api) whose routes set their own body limit; the global one skips them. */
export const SIG_OWN_BODY_LIMIT = /^\/api\/document-signature\/documents(\/[0-9a-f-]{36}\/publish)?$/;

const tooLarge = (what: string) => () => {
  throw new ApiError(413, 'BODY_TOO_LARGE', what, undefined, { connection: 'close' });
};

const versionParam = (raw: string | undefined): number | 'draft' => {
  if (raw === 'draft') return 'draft';
  if (!raw || !/^\d{1,6}$/.test(raw) || Number(raw) < 1)
    throw new ApiError(404, 'NOT_FOUND', 'There is no such document version.');
  return Number(raw);
};

export const sigConsoleRoutes = new Hono<AppEnv>()
  .get('/document-signature/documents', requireRole('admin'), async (c) => {
    return c.json(await listDocuments(c.var.deps, c.var.session.accountId));
  })

  /** The PDF is the body (application/pdf); ?name= names the document. */
  .post(
    '/document-signature/documents',
    requireRole('admin'),
    bodyLimit({ maxSize: SIG_MAX_PDF_BYTES, onError: tooLarge('The PDF is larger than 20 MB.') }),
    validate('query', SigUploadQuerySchema),
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const fileName = percentDecodedHeader(c.req.header('x-file-name'), 'X-File-Name')?.trim() || 'document.pdf';
      const doc = await uploadDocument(
        c.var.deps,
        c.var.session.accountId,
        { name: c.req.valid('query').name, fileName, bytes },
        actorOf(c.var.session),
      );
      return c.json(doc, 201);
    },
  )

  .get('/document-signature/documents/:id/history', requireRole('admin'), async (c) => {
    return c.json(await documentHistory(c.var.deps, c.var.session.accountId, uuidParam(c, 'id')));
  })

  .get('/document-signature/documents/:id/versions/:version', requireRole('admin'), async (c) => {
    return c.json(
      await getVersion(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), versionParam(c.req.param('version'))),
    );
  })

  .put('/document-signature/documents/:id/draft', requireRole('admin'), validate('json', SigDraftBodySchema), async (c) => {
    return c.json(
      await saveDraft(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), c.req.valid('json'), actorOf(c.var.session)),
    );
  })

  .post(
    '/document-signature/documents/:id/publish',
    requireRole('admin'),
    // one JPEG of at most 1 MB per page, base64
    bodyLimit({ maxSize: 40 * 1024 * 1024, onError: tooLarge('The page images are larger than 40 MB in all.') }),
    validate('json', SigPublishBodySchema),
    async (c) => {
      return c.json(
        await publishDraft(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), c.req.valid('json'), actorOf(c.var.session)),
        201,
      );
    },
  )

  .get('/document-signature/signatures/:id/files', requireRole('supervisor'), async (c) => {
    return c.json(await requestFiles(c.var.deps, c.var.session.accountId, uuidParam(c, 'id')));
  })

  // the key and certificate libraries load with the first call, not with the server
  .get('/document-signature/signing', requireRole('admin'), async (c) => {
    return c.json(await (await certificates()).signingOverview(c.var.deps, c.var.session.accountId));
  })

  .post(
    '/document-signature/signing/certificates',
    requireRole('admin'),
    validate('json', SigCertificateUploadSchema),
    async (c) => {
      return c.json(
        await (await certificates()).uploadSigningCertificate(
          c.var.deps,
          c.var.session.accountId,
          c.req.valid('json'),
          actorOf(c.var.session),
        ),
        201,
      );
    },
  )

  .delete('/document-signature/signing/certificates/:id', requireRole('admin'), async (c) => {
    const { removeSigningCertificate, signingOverview } = await certificates();
    await removeSigningCertificate(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), actorOf(c.var.session));
    return c.json(await signingOverview(c.var.deps, c.var.session.accountId));
  });
