import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { sessionCaller } from '../apps/platform/caller';
import { requestOrigin, uuidParam } from '../apps/platform/request';
import { ActionChoicesQuerySchema } from '../contract/platform';
import { JourneyListQuerySchema, JourneySendBodySchema, JourneyTemplateBodySchema } from '../contract/journeys';
import {
  archiveTemplate,
  createTemplate,
  getJourneyDetail,
  getTemplate,
  journeyChoices,
  listJourneys,
  listTemplates,
  resendJourney,
  sendJourney,
  updateTemplate,
} from './service';
import './customer-page';

// The console's journeys (/api/journeys…): admins build templates; admins, supervisors and
// agents (the Zoom and Webex panels) send them and follow them. Thin: the rules are in service.ts.

export const journeyRoutes = new Hono<AppEnv>()
  .get('/journeys/templates', async (c) => c.json(await listTemplates(c.var.deps, c.var.session.accountId)))
  .post('/journeys/templates', requireRole('admin'), validate('json', JourneyTemplateBodySchema), async (c) => {
    const session = c.var.session;
    return c.json(await createTemplate(c.var.deps, session.accountId, c.req.valid('json'), actorOf(session)), 201);
  })
  .get('/journeys/templates/:id', async (c) => c.json(await getTemplate(c.var.deps, c.var.session.accountId, uuidParam(c, 'id'))))
  .put('/journeys/templates/:id', requireRole('admin'), validate('json', JourneyTemplateBodySchema), async (c) => {
    const session = c.var.session;
    return c.json(await updateTemplate(c.var.deps, session.accountId, uuidParam(c, 'id'), c.req.valid('json'), actorOf(session)));
  })
  .delete('/journeys/templates/:id', requireRole('admin'), async (c) => {
    const session = c.var.session;
    await archiveTemplate(c.var.deps, session.accountId, uuidParam(c, 'id'), actorOf(session));
    return c.body(null, 204);
  })
  // the picker of the console's send and of the agent action in the Zoom and Webex panels
  .get('/journeys/choices', validate('query', ActionChoicesQuerySchema), async (c) => {
    return c.json(await journeyChoices(c.var.deps, c.var.session.accountId, c.req.valid('query').q ?? ''));
  })
  .get('/journeys', requireRole('supervisor'), validate('query', JourneyListQuerySchema), async (c) =>
    c.json(await listJourneys(c.var.deps, c.var.session.accountId, c.req.valid('query').status)),
  )
  .post('/journeys', validate('json', JourneySendBodySchema), async (c) => {
    const session = c.var.session;
    const origin = requestOrigin(c);
    const body = c.req.valid('json');
    // the agent is whoever is signed in: a console or panel user cannot send in another's name
    return c.json(
      await sendJourney(
        c.var.deps,
        session.accountId,
        { ...body, agent: undefined },
        sessionCaller(session, origin.ip, origin.userAgent),
      ),
      201,
    );
  })
  .get('/journeys/:id', async (c) => {
    const session = c.var.session;
    const detail = await getJourneyDetail(c.var.deps, session.accountId, uuidParam(c, 'id'));
    // an agent follows the journeys it sent, as it follows its own tasks
    if (session.role === 'agent' && detail.agent !== session.email)
      throw new ApiError(404, 'NOT_FOUND', 'There is no journey with this id.');
    return c.json(detail);
  })
  .post('/journeys/:id/resend', async (c) => {
    const session = c.var.session;
    const id = uuidParam(c, 'id');
    if (session.role === 'agent') {
      const detail = await getJourneyDetail(c.var.deps, session.accountId, id);
      if (detail.agent !== session.email) throw new ApiError(404, 'NOT_FOUND', 'There is no journey with this id.');
    }
    const origin = requestOrigin(c);
    return c.json(await resendJourney(c.var.deps, session.accountId, id, sessionCaller(session, origin.ip, origin.userAgent)));
  });
