import { bench, describe } from 'vitest';
import { openPglite } from '../../api/db/index';
import { migrate } from '../../api/db/migrate';
import { seedDemo } from '../../api/seed';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';

// In-process request cost of the hottest authenticated call (token check, admin lookup under
// row-level security, account, billing and branding reads) on the embedded database.

const db = await openPglite();
await migrate(db);
await seedDemo(db, testConfig().encryptionKey);
const config = testConfig();
const deps = { config, db, tokens: tokenSigner(config.sessionSecret), now: () => new Date(), log: () => {} };
const app = createApp(deps);
const token = await issueSessionToken(deps, (await findActiveAdminByEmail(db, 'owner@acme.test'))!);
const headers = { authorization: `Bearer ${token}` };

describe('API in process (PGlite)', () => {
  bench('GET /api/health (no database)', async () => {
    await app.request('/api/health');
  });
  bench('GET /api/admins/bootstrap', async () => {
    const res = await app.request('/api/admins/bootstrap', { headers });
    if (res.status !== 200) throw new Error(String(res.status));
  });
});
