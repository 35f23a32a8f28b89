import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit } from '../../audit';
import { ApiError } from '../../http/errors';
import { createLinkToken, linkUrl } from '../../customer-pages/links';
import { translate } from '../../customer-pages/i18n/index';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../contract/locales';
import { maskPhone } from '../../contract/platform';
import { fileLink } from '../../storage/files';
import { addTaskEvent } from '../platform/task-events';
import { companyName, sendAccountSms } from '../platform/sms';

// The signer's own copy of what they signed (Documenso and DocuSign send one). When they sign,
// a copy link is made: its own token (purpose `sign-copy`, bound to the request, hashed at rest
// like every customer link), valid SIGNER_COPY_DAYS (30 by default). The completion page links
// it at once, and it is texted to the number the request went to: the channel the request came
// by. The page answers the sealed PDF once sealing is done ("being prepared" until then).
//
// That text costs no credit: the request's one credit (taken when it was sent) covers the copy.
//
// Erasure (issue 42): `revokeSignerCopies` revokes the copy links of the given requests; a link
// whose request row is gone answers "no longer available" even without it. The column is
// link_tokens.revoked_at (purpose 'sign-copy', task_id = the request's id).

export const SIG_COPY_PURPOSE = 'sign-copy';
const DAY = 86_400_000;
const APP = 'document-signature' as const;

/** Makes the copy link of a request just signed, in the signing transaction; its token (shown once). */
export async function issueSignerCopy(
  deps: Deps,
  trx: Trx,
  accountId: string,
  requestId: string,
  locale: Locale,
  now: Date,
): Promise<string> {
  const { token } = await createLinkToken(trx, accountId, {
    app: APP,
    purpose: SIG_COPY_PURPOSE,
    taskId: requestId,
    ttlMs: deps.config.signerCopyDays * DAY,
    now,
    locale,
  });
  return token;
}

/**
 * Revokes the signer-copy links of these requests (the caller's data is being erased): each
 * answers the "revoked" page from then on. Returns how many links it revoked.
 */
export async function revokeSignerCopies(trx: Trx, accountId: string, requestIds: string[], now: Date): Promise<number> {
  if (!requestIds.length) return 0;
  const res = await sql`update link_tokens set revoked_at = ${now}
    where account_id = ${accountId} and purpose = ${SIG_COPY_PURPOSE} and revoked_at is null
      and task_id in (${sql.join(requestIds)})`.execute(trx);
  return Number(res.numAffectedRows ?? 0);
}

type CopyRow = {
  phone_number: string;
  document_name: string;
  signer_locale: string | null;
  status: string;
  signed_file_id: string | null;
};

/** Texts the copy link to the number the request went to; a failure is kept in the timeline, never thrown at the signer. */
export async function sendSignerCopy(deps: Deps, accountId: string, requestId: string, token: string): Promise<void> {
  const now = deps.now();
  const prepared = await deps.db.tenant(accountId, async (trx) => {
    const row = (
      await sql<CopyRow>`select phone_number, document_name, signer_locale, status, signed_file_id from sig_requests where account_id = ${accountId} and id = ${requestId}`.execute(
        trx,
      )
    ).rows[0];
    if (!row) return null;
    const locale = isLocale(row.signer_locale) ? row.signer_locale : DEFAULT_LOCALE;
    const text = translate(locale, 'sig.copy.sms', {
      company: await companyName(trx, accountId),
      document: row.document_name,
      link: await linkUrl(trx, accountId, deps.config.publicUrl, token),
    });
    return { row, text };
  });
  if (!prepared) return;
  let failure: string | null = null;
  try {
    await sendAccountSms(deps, accountId, prepared.row.phone_number, prepared.text);
  } catch (err) {
    if (!(err instanceof ApiError)) deps.log('Signed copy SMS failed', err);
    failure = err instanceof ApiError ? err.message : 'The SMS provider could not be reached.';
  }
  const masked = maskPhone(prepared.row.phone_number);
  await deps.db.tenant(accountId, async (trx) => {
    const description =
      failure === null
        ? `Link to the signed copy texted to ${masked} (valid ${deps.config.signerCopyDays} days)`
        : `Link to the signed copy not delivered: ${failure}`;
    await addTaskEvent(trx, accountId, {
      app: APP,
      taskId: requestId,
      ts: now,
      type: failure === null ? 'copy_sent' : 'copy_not_sent',
      description,
      caller: null,
    });
    await audit(trx, accountId, null, {
      namespace: APP,
      description: `${prepared.row.document_name}: ${description.charAt(0).toLowerCase()}${description.slice(1)}`,
      event: failure === null ? 'document.copy-sent' : 'document.copy-not-sent',
      at: now,
    });
  });
}

export type SignerCopy =
  | { state: 'ready'; documentName: string; url: string }
  | { state: 'preparing'; documentName: string }
  | { state: 'gone' };

/** What the copy link shows: the sealed PDF (a fresh five-minute download link), "being prepared", or nothing left. */
export async function signerCopy(deps: Deps, accountId: string, requestId: string): Promise<SignerCopy> {
  const row = await deps.db.tenant(
    accountId,
    async (trx) =>
      (
        await sql<CopyRow>`select phone_number, document_name, signer_locale, status, signed_file_id from sig_requests where account_id = ${accountId} and id = ${requestId}`.execute(
          trx,
        )
      ).rows[0],
  );
  if (!row) return { state: 'gone' };
  if (row.status === 'completed' && row.signed_file_id) {
    return {
      state: 'ready',
      documentName: row.document_name,
      url: fileLink(deps, accountId, row.signed_file_id, {
        filename: `${row.document_name} (signed).pdf`,
        disposition: 'attachment',
      }),
    };
  }
  // signed and not sealed yet; any other status (the signed file deleted by retention) has no copy
  return row.status === 'signed' ? { state: 'preparing', documentName: row.document_name } : { state: 'gone' };
}
