import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { HOST_ERRORS, ZoomContextBodySchema, type ZoomLoginAnswer } from '../contract/hosts';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { hostSignIn } from '../apps/platform/agent-sign-in';
import { verifyZoomContext, zoomApiFor } from '../identity/zoom';

const notConfigured = () => new ApiError(503, HOST_ERRORS.ZOOM_NOT_CONFIGURED, 'Sign-in from Zoom is not set up on this server.');

/** Public: the Zoom app signs in with its encrypted app context (no session yet). */
export const zoomRoutes = new Hono<AppEnv>().post('/zoom/context', validate('json', ZoomContextBodySchema), async (c) => {
  const deps = c.var.deps;
  const zoom = deps.config.zoom;
  if (!zoom.clientId || !zoom.clientSecret) throw notConfigured();
  const ctx = verifyZoomContext(c.req.valid('json').context, zoom, deps.now());
  if (!zoom.accountId || !zoom.apiClientId || !zoom.apiClientSecret) throw notConfigured();
  const user = await zoomApiFor(zoom).user(ctx.uid, deps.now());
  // An unconfirmed address proves nothing about who owns it: never sign it in as that admin.
  if (user.verified === 0 || (user.status !== undefined && user.status !== 'active')) {
    throw new ApiError(403, HOST_ERRORS.ZOOM_USER_UNVERIFIED, 'Please confirm your e-mail address with Zoom, then reopen the app.');
  }
  // non-admins of an account that proved the e-mail's domain get an agent session
  const answer: ZoomLoginAnswer = await hostSignIn(deps, { email: user.email, firstName: user.first_name, lastName: user.last_name, platform: 'zoom' });
  return c.json(answer);
});
