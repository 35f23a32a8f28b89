// A process of its own that erases one caller, for the test that kills it halfway
// (test/api/privacy-faults.test.ts): argv = database URL, account id, phone number, encryption key.
import { importTypeScript } from './import-typescript.mjs';

const m = await importTypeScript(
  'privacy-eraser',
  `export { openPostgres } from './api/db/index'; export { requestErasure } from './api/privacy/service'; export { testConfig } from './api/config';`,
);
const [url, accountId, phoneNumber, encryptionKey] = process.argv.slice(2);
const db = await m.openPostgres(url, 2);
const deps = { config: m.testConfig({ encryptionKey }), db, tokens: null, now: () => new Date(), log: () => {} };
process.stdout.write('erasing\n');
await m.requestErasure(deps, accountId, { phoneNumber }, { actor: null, name: 'Eraser process', via: 'api' });
process.stdout.write('done\n');
await db.close();
