import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import type { Session } from '../auth/context';
import {
  FullNumbersBodySchema,
  LoggingDestinationParamSchema,
  LegalHoldBodySchema,
  PrivacyRequestIdParamSchema,
  PrivacySubjectSchema,
  RetentionKindParamSchema,
  RetentionRuleBodySchema,
} from '../contract/privacy';
import { confirmRetentionRule, retentionRules, setRetentionRule } from './retention';
import { getLegalHold, setLoggingFullNumbers } from './service';
import { validate } from '../http/validate';
import {
  findCustomerData,
  getPrivacyRequest,
  listPrivacyRequests,
  privacyReceipt,
  releaseLegalHold,
  requestErasure,
  requestExport,
  setLegalHold,
  type Requester,
} from './service';

// The console's Customer data screen (admins only): find what is held about one caller, erase
// it, export it, download a request's receipt; and legal holds on signature requests. The caller
// is always named in a body, never in a URL.

const requester = (session: Session): Requester => ({
  actor: actorOf(session),
  name: `${session.firstName} ${session.lastName}`.trim() || session.email,
  via: 'console',
});

const SigRequestParamSchema = PrivacyRequestIdParamSchema;

export const privacyRoutes = new Hono<AppEnv>()
  .post('/privacy/search', requireRole('admin'), validate('json', PrivacySubjectSchema), async (c) =>
    c.json(await findCustomerData(c.var.deps, c.var.session.accountId, c.req.valid('json'))),
  )
  .post('/privacy/erasure-requests', requireRole('admin'), validate('json', PrivacySubjectSchema), async (c) => {
    // 200 for a new request and for the open one carried on alike: the console shows the receipt either way
    const { request } = await requestErasure(c.var.deps, c.var.session.accountId, c.req.valid('json'), requester(c.var.session));
    return c.json(request);
  })
  .post('/privacy/export-requests', requireRole('admin'), validate('json', PrivacySubjectSchema), async (c) => {
    const { request } = await requestExport(c.var.deps, c.var.session.accountId, c.req.valid('json'), requester(c.var.session));
    return c.json(request);
  })
  .get('/privacy/requests', requireRole('admin'), async (c) =>
    c.json(await listPrivacyRequests(c.var.deps, c.var.session.accountId)),
  )
  .get('/privacy/requests/:id', requireRole('admin'), validate('param', PrivacyRequestIdParamSchema), async (c) =>
    c.json(await getPrivacyRequest(c.var.deps, c.var.session.accountId, c.req.valid('param').id)),
  )
  .get('/privacy/requests/:id/receipt', requireRole('admin'), validate('param', PrivacyRequestIdParamSchema), async (c) => {
    const receipt = await privacyReceipt(c.var.deps, c.var.session.accountId, c.req.valid('param').id);
    return new Response(receipt.body, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${receipt.filename}"`,
        'cache-control': 'no-store',
      },
    });
  })
  .get('/privacy/legal-holds/:id', requireRole('admin'), validate('param', SigRequestParamSchema), async (c) =>
    c.json(await getLegalHold(c.var.deps, c.var.session.accountId, c.req.valid('param').id)),
  )
  .put(
    '/privacy/legal-holds/:id',
    requireRole('admin'),
    validate('param', SigRequestParamSchema),
    validate('json', LegalHoldBodySchema),
    async (c) =>
      c.json(
        await setLegalHold(
          c.var.deps,
          c.var.session.accountId,
          c.req.valid('param').id,
          c.req.valid('json').reason,
          requester(c.var.session),
        ),
      ),
  )
  .delete('/privacy/legal-holds/:id', requireRole('admin'), validate('param', SigRequestParamSchema), async (c) =>
    c.json(await releaseLegalHold(c.var.deps, c.var.session.accountId, c.req.valid('param').id, requester(c.var.session))),
  )
  .put(
    '/privacy/full-numbers/logging/:destination',
    requireRole('admin'),
    validate('param', LoggingDestinationParamSchema),
    validate('json', FullNumbersBodySchema),
    async (c) =>
      c.json(
        await setLoggingFullNumbers(
          c.var.deps,
          c.var.session.accountId,
          c.req.valid('param').destination,
          c.req.valid('json').fullPhoneNumbers,
          requester(c.var.session),
        ),
      ),
  )
  .get('/privacy/retention', requireRole('admin'), async (c) => c.json(await retentionRules(c.var.deps, c.var.session.accountId)))
  .put('/privacy/retention', requireRole('admin'), validate('json', RetentionRuleBodySchema), async (c) => {
    const { kind, days } = c.req.valid('json');
    return c.json(await setRetentionRule(c.var.deps, c.var.session.accountId, kind, days, requester(c.var.session)));
  })
  .post('/privacy/retention/:kind/confirm', requireRole('admin'), validate('param', RetentionKindParamSchema), async (c) =>
    c.json(await confirmRetentionRule(c.var.deps, c.var.session.accountId, c.req.valid('param').kind, requester(c.var.session))),
  );
