import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import { ApiError } from '../../http/errors';
import { validate } from '../../http/validate';
import { IDV_APP, IdvDecisionBodySchema, IdvMrzBodySchema } from '../../contract/apps/identity-verification';
import { visibleApps } from '../../contract/apps';
import { sessionCaller } from '../platform/caller';
import { requestOrigin, uuidParam } from '../platform/request';
import { assignToMe, decide, enterMrz, releaseCase, reviewOf, type Reviewer } from './review';
import { reviewQueue } from './queue';

// The review screen's API (/api/identity-verification/sessions/…): the session with signed links
// to its photos, typing the MRZ, taking it for review and the decision. The app is unreleased:
// only users of the provider's own e-mail domain reach it.

function gate(c: Context<AppEnv>): void {
  const session = c.var.session;
  if (!visibleApps(session.email, c.var.deps.config.providerEmailDomain).some((a) => a.id === IDV_APP)) {
    throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  }
}

function reviewer(c: Context<AppEnv>): Reviewer {
  const origin = requestOrigin(c);
  return {
    ...sessionCaller(c.var.session, origin.ip, origin.userAgent),
    adminId: c.var.session.role === 'agent' ? null : c.var.session.adminId,
  };
}

export const idvConsoleRoutes = new Hono<AppEnv>()
  .get('/identity-verification/sessions/:id', requireRole('supervisor'), async (c) => {
    gate(c);
    return c.json(await reviewOf(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), reviewer(c)));
  })
  .get('/identity-verification/queue', requireRole('supervisor'), async (c) => {
    gate(c);
    return c.json(await reviewQueue(c.var.deps, c.var.session.accountId, reviewer(c)));
  })
  .post('/identity-verification/sessions/:id/release', requireRole('supervisor'), async (c) => {
    gate(c);
    return c.json(await releaseCase(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), reviewer(c)));
  })
  .post('/identity-verification/sessions/:id/assign', requireRole('supervisor'), async (c) => {
    gate(c);
    return c.json(await assignToMe(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'), reviewer(c)));
  })
  .post('/identity-verification/sessions/:id/mrz', requireRole('supervisor'), validate('json', IdvMrzBodySchema), async (c) => {
    gate(c);
    const id = uuidParam(c, 'id');
    return c.json(await enterMrz(c.var.deps, c.var.session.accountId, id, c.req.valid('json').lines, reviewer(c)));
  })
  .post(
    '/identity-verification/sessions/:id/decision',
    requireRole('supervisor'),
    validate('json', IdvDecisionBodySchema),
    async (c) => {
      gate(c);
      const id = uuidParam(c, 'id');
      return c.json(await decide(c.var.deps, c.var.session.accountId, id, c.req.valid('json'), reviewer(c)));
    },
  );
