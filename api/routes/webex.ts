import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { HOST_ERRORS, WebexAuthenticateBodySchema } from '../contract/hosts';
import type { TokenAnswer } from '../contract/session';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { hostSignIn } from '../apps/platform/agent-sign-in';
import { verifyWebexToken, webexKeysFor } from '../identity/webex';

/** Public: the Webex embedded app signs in with the user's JWT from the SDK (no session yet). */
export const webexRoutes = new Hono<AppEnv>().post('/webex/authenticate', validate('json', WebexAuthenticateBodySchema), async (c) => {
  const deps = c.var.deps;
  const webex = deps.config.webex;
  if (!webex.appId) throw new ApiError(503, HOST_ERRORS.WEBEX_NOT_CONFIGURED, 'Sign-in from Webex is not set up on this server.');
  const identity = await verifyWebexToken(c.req.valid('json').accessToken, webex, webexKeysFor(webex), deps.now());
  // non-admins of an account that proved the e-mail's domain get an agent session
  const { token } = await hostSignIn(deps, { ...identity, platform: 'webex' });
  const answer: TokenAnswer = { token };
  return c.json(answer);
});
