import { sql } from 'kysely';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { Deps } from '../../deps';
import { apiCaller } from '../platform/caller';
import type { SigField } from '../../contract/apps/document-signature';
import { publishDraft, saveDraft, uploadDocument } from './documents';
import {
  declineAsCustomer,
  getRequest,
  openForSigner,
  sealRequest,
  sendForSignature,
  signAsCustomer,
  cancelRequest,
} from './service';

// Demo history of Document Signature, made by the service functions real use runs (a clock
// walked through the last 30 days): a document made here with pdf-lib, published, sent to
// customers who open, sign (sealed), decline, let it expire or are cancelled. Only accounts
// where the app is active and SMS goes to the development outbox get it: nothing leaves the
// machine.

const DAY = 86_400_000;
const AGENTS = ['maya@acme.test', 'leo@acme.test', 'ines@acme.test'];
const NAMES = [
  'Ada Lovelace',
  'Grace Hopper',
  'Alan Turing',
  'Katherine Johnson',
  'Edsger Dijkstra',
  'Barbara Liskov',
  'Donald Knuth',
  'Frances Allen',
  'John Backus',
  'Radia Perlman',
];

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** A three-page agreement with room for a name, a date and a signature on the last page. */
export async function demoAgreementPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const clauses = [
    'The customer asks the company to provide the service described in the order, and the company agrees to provide it.',
    'Fees are charged monthly in advance. The customer may cancel at the end of any month by telling the company.',
    "Both parties keep the other party's information confidential and use it only for this agreement.",
  ];
  for (let p = 0; p < 3; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(p === 0 ? 'Service agreement' : `Service agreement (continued)`, { x: 60, y: 720, size: 20, font: bold });
    clauses.forEach((c, i) =>
      page.drawText(`${p * 3 + i + 1}. ${c}`, { x: 60, y: 670 - i * 40, size: 10, font, maxWidth: 490, lineHeight: 13 }),
    );
    if (p === 2) {
      page.drawText('Full name', { x: 60, y: 300, size: 10, font });
      page.drawLine({ start: { x: 60, y: 315 }, end: { x: 300, y: 315 }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
      page.drawText('Date', { x: 340, y: 300, size: 10, font });
      page.drawLine({ start: { x: 340, y: 315 }, end: { x: 550, y: 315 }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
      page.drawText('Signature', { x: 60, y: 200, size: 10, font });
      page.drawLine({ start: { x: 60, y: 215 }, end: { x: 300, y: 215 }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
    }
  }
  return doc.save();
}

const FIELDS: SigField[] = [
  { id: 'name', kind: 'fullName', page: 2, x: 0.098, y: 0.56, w: 0.39, h: 0.035, label: 'Full name', required: true },
  { id: 'date', kind: 'dateSigned', page: 2, x: 0.556, y: 0.56, w: 0.34, h: 0.035, label: 'Date signed', required: true },
  { id: 'sig', kind: 'signature', page: 2, x: 0.098, y: 0.66, w: 0.39, h: 0.07, label: 'Signature', required: true },
  {
    id: 'terms',
    kind: 'checkbox',
    page: 0,
    x: 0.098,
    y: 0.4,
    w: 0.03,
    h: 0.025,
    label: 'I have read the terms',
    required: false,
  },
];

export async function seedSignatureHistory(deps: Deps, options: { perAccount?: number; now?: Date } = {}): Promise<number> {
  const end = options.now ?? new Date();
  const n = options.perAccount ?? 12;
  const accounts = await deps.db.system(async (trx) => {
    const active = sql`select account_id from app_billing where app = 'document-signature' and status not in ('inactive', 'cancelled')`;
    // demo accounts without SMS get the development outbox (one with Twilio keeps it, and is skipped)
    await sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number)
      select account_id, 'dev-outbox', '', '', '' from (${active}) a on conflict (account_id) do nothing`.execute(trx);
    return sql<{ account_id: string }>`select a.account_id from (${active}) a join sms_settings s on s.account_id = a.account_id
      where s.provider = 'dev-outbox' and not exists (select 1 from sig_documents d where d.account_id = a.account_id)`.execute(
      trx,
    );
  });
  let made = 0;
  const pdf = accounts.rows.length ? await demoAgreementPdf() : null;
  for (const { account_id: accountId } of accounts.rows) {
    const rand = random(7717);
    let clock = new Date(end.getTime() - 31 * DAY);
    const d: Deps = { ...deps, now: () => clock };
    const admin = { id: null, firstName: 'Demo', lastName: 'Admin' };
    const doc = await uploadDocument(
      d,
      accountId,
      { name: 'Service agreement', fileName: 'service-agreement.pdf', bytes: pdf! },
      admin,
    );
    await saveDraft(d, accountId, doc.id, { name: 'Service agreement', fields: FIELDS }, admin);
    await publishDraft(d, accountId, doc.id, {}, admin);
    const starts = Array.from({ length: n }, () => end.getTime() - Math.pow(rand(), 1.3) * 30 * DAY).sort((a, b) => a - b);
    for (let i = 0; i < n; i++) {
      clock = new Date(starts[i]!);
      const agent = AGENTS[Math.floor(rand() * AGENTS.length)]!;
      const name = NAMES[i % NAMES.length]!;
      const phone = `+1555${String(3000000 + i * 41).padStart(7, '0')}`;
      const caller = apiCaller(agent, null, 'Demo agent app');
      const sent = await sendForSignature(
        d,
        accountId,
        { documentId: doc.id, phoneNumber: phone, signerName: name, customerRef: `CUST-${200100 + i}`, agent },
        caller,
      );
      made++;
      const roll = rand();
      const origin = { ip: `198.51.100.${10 + i}`, userAgent: 'Mozilla/5.0 (iPhone; demo)' };
      if (roll < 0.1) {
        clock = new Date(new Date(sent.expiresAt).getTime() + 1000);
        await getRequest(d, accountId, sent.id);
        continue;
      }
      if (roll < 0.15) {
        clock = new Date(clock.getTime() + 3600_000);
        await cancelRequest(d, accountId, sent.id, caller);
        continue;
      }
      const sms = await d.db.tenant(accountId, (trx) =>
        trx
          .selectFrom('dev_sms_outbox')
          .select('body')
          .where('to_number', '=', phone)
          .orderBy('created_at', 'desc')
          .executeTakeFirstOrThrow(),
      );
      const token = sms.body.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
      clock = new Date(clock.getTime() + 30_000 + rand() * 600_000);
      await openForSigner(d, accountId, sent.id, origin);
      if (roll < 0.25) continue;
      clock = new Date(clock.getTime() + 60_000 + rand() * 1800_000);
      if (roll < 0.35) {
        await declineAsCustomer(d, accountId, sent.id, token, 'I need to check the fees first.', origin);
        continue;
      }
      await signAsCustomer(
        d,
        accountId,
        sent.id,
        token,
        { values: { name, terms: 'on' }, signatures: { sig: { typed: name } }, consent: true },
        origin,
      );
      clock = new Date(clock.getTime() + 5_000);
      await sealRequest(d, accountId, sent.id);
    }
  }
  return made;
}
