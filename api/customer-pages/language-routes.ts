import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import { validate } from '../http/validate';
import { CustomerLanguageSchema, type CustomerLanguage } from '../contract/locales';
import { accountCustomerLocale, setAccountCustomerLocale } from './language';

// "Customers' default language" (Settings > Branding): every role reads it (the send dialogs
// show it), admins change it.
export const customerLanguageRoutes = new Hono<AppEnv>()
  .get('/customer-language', async (c) => {
    const { accountId } = c.var.session;
    const answer: CustomerLanguage = {
      locale: await c.var.deps.db.tenant(accountId, (trx) => accountCustomerLocale(trx, accountId)),
    };
    return c.json(answer);
  })
  .put('/customer-language', requireRole('admin'), validate('json', CustomerLanguageSchema), async (c) => {
    const { locale } = c.req.valid('json');
    const session = c.var.session;
    await c.var.deps.db.tenant(session.accountId, (trx) =>
      setAccountCustomerLocale(trx, session.accountId, actorOf(session), locale),
    );
    const answer: CustomerLanguage = { locale };
    return c.json(answer);
  });
