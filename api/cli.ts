import { ConfigError, loadConfig } from './config';
import { DataDirBusy } from './db/lock';
import { openRuntime } from './runtime';
import { seedDemo } from './seed';
import { seedOtpHistory } from './apps/one-time-passcode/seed';
import { seedIdvHistory } from './apps/identity-verification/seed';
import { seedPasskeyHistory } from './apps/passkeys/seed';
import { seedEformHistory } from './apps/e-form/seed';
import { seedSignatureHistory } from './apps/document-signature/seed';
import { EmailSchema } from './contract/common';
import * as v from 'valibot';
import { findActiveAdminByEmail, issueSessionToken, signInLink } from './auth/sessions';

const USAGE = `Usage:
  npm run cli -- link <email>...  print a sign-in URL for each existing admin, one per line
  npm run cli -- seed           (re)create the demo accounts
  npm run cli -- migrate        apply database migrations
  npm run cli -- manifests [dir]  write the Zoom and Webex app manifests for PUBLIC_URL (default dist/manifests)`;

class UsageError extends Error {}

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  if (command === 'manifests') {
    const { writeManifests } = await import('../manifests/index');
    let files: string[];
    try {
      files = writeManifests(loadConfig().publicUrl, rest[0] ?? 'dist/manifests');
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new UsageError(err instanceof Error ? err.message : String(err));
    }
    for (const file of files) console.log(`wrote ${file}`);
    return;
  }
  if (!['link', 'seed', 'migrate'].includes(command)) throw new UsageError(`Unknown command '${command}'.\n${USAGE}`);
  const emails: string[] = [];
  if (command === 'link') {
    for (const arg of rest.length ? rest : ['']) {
      const parsed = v.safeParse(EmailSchema, arg);
      if (!parsed.success) throw new UsageError(`'${arg}' is not an e-mail address.\n${USAGE}`);
      emails.push(parsed.output);
    }
  }
  const config = loadConfig();
  const runtime = await openRuntime(config);
  try {
    if (command === 'seed') {
      const accounts = await seedDemo(runtime.db, config.encryptionKey);
      console.log(`Seeded ${accounts.length} demo accounts: ${accounts.map((a) => a.account.name).join(', ')}.`);
      console.log(`Made ${await seedOtpHistory(runtime.deps)} one-time passcodes of demo history.`);
      console.log(`Made ${await seedIdvHistory(runtime.deps)} identity verifications of demo history.`);
      console.log(`Made ${await seedPasskeyHistory(runtime.deps)} passkey enrollments and verifications of demo history.`);
      console.log(`Made ${await seedEformHistory(runtime.deps)} form requests of demo history.`);
      console.log(`Made ${await seedSignatureHistory(runtime.deps)} signature requests of demo history.`);
    } else if (command === 'migrate') {
      console.log('Migrations are up to date.');
    } else {
      // every address is checked before any session is made: a typo issues nothing
      const admins = [];
      for (const email of emails) {
        const admin = await findActiveAdminByEmail(runtime.db, email);
        if (!admin) throw new UsageError(`No active admin has the e-mail ${email}.`);
        admins.push(admin);
      }
      for (const admin of admins) console.log(signInLink(config.publicUrl, await issueSessionToken(runtime.deps, admin)));
    }
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof DataDirBusy) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
