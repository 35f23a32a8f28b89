import { Hono } from 'hono';
import { getCookie, deleteCookie, setCookie } from 'hono/cookie';
import * as v from 'valibot';
import type { AppEnv } from '../../auth/context';
import { requireRole } from '../../auth/guards';
import { validate } from '../../http/validate';
import { sessionCaller } from '../platform/caller';
import { requestOrigin, uuidParam } from '../platform/request';
import {
  ProductBodySchema,
  ProductIdParamSchema,
  ProductQuerySchema,
  ProductUpdateBodySchema,
  RefundBodySchema,
  StripeCallbackBodySchema,
  type StripeConnectAnswer,
} from '../../contract/apps/payments';
import { completeConnect, connectionView, disconnect, OAUTH_COOKIE, OAUTH_COOKIE_PATH, startConnect } from './connect';
import { handleConnectEvent } from './events';
import { createProduct, listProducts, updateProduct } from './products';
import { refundPayment } from './service';

// The Payments app's own console routes (the shared ones are api/apps/platform/console-routes.ts):
// the Stripe connection, the Product Catalog and refunds; and Stripe's Connect webhook (public).

const RefundParam = v.object({ id: v.string() });

export const paymentsConsoleRoutes = new Hono<AppEnv>()
  .get('/payments/stripe', requireRole('supervisor'), async (c) =>
    c.json(await connectionView(c.var.deps, c.var.session.accountId)),
  )

  .post('/payments/stripe/connect', requireRole('admin'), async (c) => {
    const { url, nonce, maxAgeSeconds } = await startConnect(c.var.deps, c.var.session);
    setCookie(c, OAUTH_COOKIE, nonce, {
      path: OAUTH_COOKIE_PATH,
      httpOnly: true,
      secure: c.var.deps.config.publicUrl.startsWith('https://'),
      // Strict is enough: the callback page posts from our own origin
      sameSite: 'Strict',
      maxAge: maxAgeSeconds,
    });
    return c.json({ url } satisfies StripeConnectAnswer, 201);
  })

  .post('/payments/stripe/callback', requireRole('admin'), validate('json', StripeCallbackBodySchema), async (c) => {
    const nonce = getCookie(c, OAUTH_COOKIE);
    const answer = await completeConnect(c.var.deps, c.var.session, c.req.valid('json'), nonce);
    deleteCookie(c, OAUTH_COOKIE, { path: OAUTH_COOKIE_PATH });
    return c.json(answer);
  })

  .delete('/payments/stripe', requireRole('admin'), async (c) => c.json(await disconnect(c.var.deps, c.var.session)))

  .get('/payments/products', requireRole('supervisor'), validate('query', ProductQuerySchema), async (c) =>
    c.json(await listProducts(c.var.deps, c.var.session.accountId, c.req.valid('query').q)),
  )

  .post('/payments/products', requireRole('admin'), validate('json', ProductBodySchema), async (c) =>
    c.json(await createProduct(c.var.deps, c.var.session, c.req.valid('json')), 201),
  )

  .put(
    '/payments/products/:id',
    requireRole('admin'),
    validate('param', ProductIdParamSchema),
    validate('json', ProductUpdateBodySchema),
    async (c) => c.json(await updateProduct(c.var.deps, c.var.session, c.req.valid('param').id, c.req.valid('json'))),
  )

  .post(
    '/payments/tasks/:id/refund',
    requireRole('admin'),
    validate('param', RefundParam),
    validate('json', RefundBodySchema),
    async (c) => {
      const id = uuidParam(c, 'id');
      const session = c.var.session;
      // a refund gives money back: allowed even when the app's subscription has ended
      const origin = requestOrigin(c);
      return c.json(
        await refundPayment(
          c.var.deps,
          session.accountId,
          id,
          c.req.valid('json').amount,
          sessionCaller(session, origin.ip, origin.userAgent),
        ),
      );
    },
  );

/** Stripe's Connect webhook: public (Stripe signs it), read as the raw body the signature covers. */
export const paymentsWebhookRoutes = new Hono<AppEnv>().post('/payments/stripe/webhook', async (c) => {
  const result = await handleConnectEvent(c.var.deps, await c.req.text(), c.req.header('stripe-signature'));
  return c.json({ received: true, result });
});
