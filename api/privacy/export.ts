import { sql } from 'kysely';
import yazl from 'yazl';
import type { Readable } from 'node:stream';
import type { Deps } from '../deps';
import { audit } from '../audit';
import { openFile, putFile } from '../storage/files';
import { STORES, type Subject } from './stores';

// A caller's data as one ZIP (yazl, a small streaming ZIP writer): a JSON document per app with
// every record the stores hold about the caller, and their files beside it under files/<app>/.
// Made by the request's worker (api/privacy/service.ts), kept in the account's storage (its S3
// bucket when it has one) and handed out through a short-lived signed link. Made again from the
// start if the worker dies halfway: nothing is kept until the ZIP is whole.

async function bytesOf(opened: Buffer | Readable | null): Promise<Buffer | null> {
  if (!opened || Buffer.isBuffer(opened)) return opened;
  const chunks: Buffer[] = [];
  for await (const c of opened) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

export async function buildExport(deps: Deps, accountId: string, id: string, subject: Subject): Promise<void> {
  const zip = new yazl.ZipFile();
  const out: Buffer[] = [];
  const written = new Promise<Buffer>((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => out.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(out)));
    zip.outputStream.on('error', reject);
  });
  const counts: Record<string, number> = {};
  const byApp = new Map<string, Record<string, unknown>>();
  const mtime = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    for (const store of STORES) {
      const rows = await store.rows(trx, accountId, subject);
      const files = store.files ? await store.files(trx, accountId, subject) : [];
      if (!rows.length && !files.length) continue;
      counts[store.key] = rows.length;
      const doc = byApp.get(store.app) ?? {};
      doc[store.key] = { description: store.label, records: rows };
      byApp.set(store.app, doc);
      for (const file of files) {
        const opened = await openFile(deps, trx, accountId, file.id);
        const bytes = opened ? await bytesOf(await opened.open()) : null;
        if (!bytes) continue;
        zip.addBuffer(bytes, `files/${store.app}/${file.name.replace(/[^A-Za-z0-9._-]/g, '_')}`, { mtime });
        counts[`${store.key}.files`] = (counts[`${store.key}.files`] ?? 0) + 1;
      }
    }
  });
  for (const [app, doc] of byApp) zip.addBuffer(Buffer.from(`${JSON.stringify(doc, null, 2)}\n`), `${app}.json`, { mtime });
  zip.addBuffer(Buffer.from(README), 'README.txt', { mtime });
  zip.end();
  const bytes = await written;
  await deps.db.tenant(accountId, async (trx) => {
    const file = await putFile(deps, trx, accountId, { app: 'platform', contentType: 'application/zip', bytes });
    const done = await sql<{
      id: string;
    }>`update privacy_requests set state = 'done', finished_at = ${deps.now()}, subject_enc = null, locked_until = null, last_error = null,
        progress = ${JSON.stringify(counts)}::jsonb, file_id = ${file.id}
      where account_id = ${accountId} and id = ${id} and state <> 'done' returning id`.execute(trx);
    // another worker finished it first: this transaction's file row goes with the rollback
    if (!done.rows.length) throw new Error('The export was finished by another worker');
    const total = Object.entries(counts)
      .filter(([k]) => !k.endsWith('.files'))
      .reduce((n, [, c]) => n + c, 0);
    await audit(trx, accountId, null, {
      namespace: 'global',
      description: `Exported a caller's data (request ${id}): ${total} record${total === 1 ? '' : 's'} in ${byApp.size} app${byApp.size === 1 ? '' : 's'}`,
      event: 'privacy.exported',
    });
  });
}

const README = `What Switchboard holds about one caller, for one account.

<app>.json  every record kept about the caller by that app ("platform": what the apps share:
            messages, the SMS guard, customer results, webhooks, log shipments, the audit log),
            grouped by store, each with a description of what it holds.
files/      the files those records refer to (document images, uploads, signed PDFs, signatures).
`;
