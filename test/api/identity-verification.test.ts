import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { exifGpsSegment, makeJpeg, makePng, pngChunk } from '../../api/apps/identity-verification/sample-images';
import { expireDueSessions, startSession } from '../../api/apps/identity-verification/service';
import { assignToMe, enterMrz } from '../../api/apps/identity-verification/review';
import { IDV_JOBS } from '../../api/apps/identity-verification/jobs';
import { PRIVACY_JOBS } from '../../api/privacy/jobs';
import { seedIdvHistory } from '../../api/apps/identity-verification/seed';
import { runDueJobs } from '../../api/jobs/runner';
import { apiCaller } from '../../api/apps/platform/caller';
import { readFile } from '../../api/storage/files';
import { sniffImage, stripJpeg } from '../../api/apps/identity-verification/images';

// Identity Verification end to end through its doors: /api/v1 starts a session, the customer
// page (/c/<token>) takes the photos as a phone's browser posts them, the console's review API
// types the MRZ and decides, the jobs expire and redact.

const STAFF = 'staff@provider.test';
const DAY = 86_400_000;

// ICAO 9303 part 4, the specimen passport of Anna Maria Eriksson of Utopia (expired 2012-04-15)
const UTOPIA = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
// the same with the document number's check digit changed (6 → 7)
const UTOPIA_WRONG_DIGIT = [UTOPIA[0]!, 'L898902C37UTO7408122F1204159ZE184226B<<<<<10'];

/** ICAO 9303 check digit (weights 7, 3, 1), written here independently of the `mrz` package. */
function checkDigit(s: string): string {
  const value = (ch: string) => (ch === '<' ? 0 : /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 55);
  return String([...s].reduce((sum, ch, i) => sum + value(ch) * [7, 3, 1][i % 3]!, 0) % 10);
}

/** A TD3 MRZ with right check digits for a given document number, birth and expiry (YYMMDD). */
function td3(number: string, birth: string, expiry: string, names = 'ERIKSSON<<ANNA<MARIA'): string[] {
  const doc = number.padEnd(9, '<');
  const personal = 'ZE184226B'.padEnd(14, '<');
  const parts = `${doc}${checkDigit(doc)}UTO${birth}${checkDigit(birth)}F${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`;
  const composite = `${doc}${checkDigit(doc)}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`;
  return [`P<UTO${names}`.padEnd(44, '<'), `${parts}${checkDigit(composite)}`];
}

const png = () => makePng(4, 3, (x, y) => [x * 60, y * 80, 120], [pngChunk('tEXt', Buffer.from('Comment\0taken at 51.5074 N'))]);
const jpegWithGps = () => makeJpeg(2, 2, (bx, by) => 40 + bx * 80 + by * 60, [exifGpsSegment()]);

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

const v1 = (t: TestContext, key: string, method: string, path: string, body?: unknown) =>
  t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });

async function lastLink(t: TestContext, as: string, to: string): Promise<string> {
  const list = (await (await t.call('GET', '/dev/sms-outbox', { as })).json()) as { to: string; body: string }[];
  return list.find((m) => m.to === to)!.body.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
}

const page = (t: TestContext, token: string, query = '') => t.app.request(`/c/${token}${query}`);
const post = (t: TestContext, token: string, path: string, form: Record<string, string | Blob>) => {
  const body = new FormData();
  for (const [k, value] of Object.entries(form)) body.append(k, value);
  return t.app.request(`/c/${token}/idv/${path}`, { method: 'POST', body });
};
const photo = (bytes: Buffer, type = 'image/jpeg') => new File([new Uint8Array(bytes)], 'photo', { type });

let phoneCounter = 0;
const freshPhone = () => `+1415556${String(1000 + phoneCounter++).padStart(4, '0')}`;

type Session = {
  id: string;
  status: string;
  checks: { key: string; status: string; reason: string }[];
  redactedAt: string | null;
};
type Review = {
  session: Session;
  images: { side: string; url: string | null }[];
  extracted: { lastName: string; documentNumber: string; expiryDate: string; dateOfBirth: string } | null;
  decision: { decision: string; reason: string; reviewer: { name: string } } | null;
  assignedTo: { name: string } | null;
  assignedToYou: boolean;
  imagesRedactedAt: string | null;
  dataRedactedAt: string | null;
};

describe.each(DATABASE_KINDS)('Identity Verification (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: STAFF, body: { provider: 'dev-outbox' } })).status).toBe(200);
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = await apiKeyOf(t, STAFF);
  });
  beforeEach(() => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
  });

  /** Starts a session and has the customer send a passport and a selfie; answers id and token. */
  async function submitted(body: Record<string, unknown> = {}): Promise<{ id: string; token: string; phone: string }> {
    const phone = freshPhone();
    const res = await v1(t, key, 'POST', '/idv/sessions', { customerRef: 'CUST-77', phoneNumber: phone, ...body });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as Session;
    const token = await lastLink(t, STAFF, phone);
    expect((await post(t, token, 'document', { documentType: 'passport' })).status).toBe(303);
    expect((await post(t, token, 'photo/front', { photo: photo(png(), 'image/png') })).headers.get('location')).toBe(
      `/c/${token}#front`,
    );
    expect((await post(t, token, 'photo/selfie', { upload: photo(jpegWithGps()) })).headers.get('location')).toBe(
      `/c/${token}#selfie`,
    );
    expect((await post(t, token, 'submit', {})).status).toBe(303);
    return { id, token, phone };
  }

  const review = async (id: string) =>
    (await (await t.call('GET', `/identity-verification/sessions/${id}`, { as: STAFF })).json()) as Review;
  const typeMrz = (id: string, lines: string[]) =>
    t.call('POST', `/identity-verification/sessions/${id}/mrz`, { as: STAFF, body: { lines: lines.join('\n') } });
  const decideAs = (id: string, body: unknown) =>
    t.call('POST', `/identity-verification/sessions/${id}/decision`, { as: STAFF, body });
  const events = (type: string, id: string) =>
    t.db.system(
      async (trx) =>
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from webhook_events where type = ${type} and payload->'data'->>'id' = ${id}`.execute(trx)
        ).rows[0]!.n,
    );

  it('the demo history is made by the service and shows on the dashboard', async () => {
    expect(await seedIdvHistory(t.deps, { count: 14, now: t.clock.now })).toBe(14);
    expect(await seedIdvHistory(t.deps, { count: 14, now: t.clock.now })).toBe(0);
    const list = (await (await t.call('GET', '/identity-verification/tasks', { as: STAFF })).json()) as { status: string }[];
    expect(list.map((r) => r.status)).toEqual(expect.arrayContaining(['approved', 'declined']));
    const dashboard = (await (await t.call('GET', '/identity-verification/dashboard?days=30', { as: STAFF })).json()) as {
      tiles: { key: string; value: number }[];
    };
    expect(dashboard.tiles.map((x) => x.key)).toEqual(['started', 'approvedRate', 'inReview', 'medianReview']);
    expect(dashboard.tiles.find((x) => x.key === 'started')!.value).toBe(14);
    expect(dashboard.tiles.find((x) => x.key === 'approvedRate')!.value).toBeGreaterThan(0);
  });

  it('a complete session: link by SMS, photos from the customer page, MRZ typed, checks, approval', async () => {
    const phone = freshPhone();
    const started = await v1(t, key, 'POST', '/idv/sessions', {
      customerRef: 'CUST-1001',
      phoneNumber: phone,
      expectedName: 'Anna Maria Eriksson',
      expectedDateOfBirth: '1974-08-12',
      agent: 'jo@provider.test',
    });
    expect(started.status).toBe(201);
    const session = (await started.json()) as Session & { phoneNumber: string };
    expect(session).toMatchObject({ status: 'link_sent', phoneNumber: `+1 •••• •• ${phone.slice(-4)}` });
    const token = await lastLink(t, STAFF, phone);

    const first = await page(t, token);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('Which document will you show?');
    await post(t, token, 'document', { documentType: 'passport' });
    expect((await v1(t, key, 'GET', `/idv/sessions/${session.id}`).then((r) => r.json())) as Session).toMatchObject({
      status: 'in_progress',
      documentType: 'passport',
    });
    const steps = await (await page(t, token)).text();
    expect(steps).toContain('capture="environment"');
    expect(steps).toContain('capture="user"');
    expect(steps).not.toContain('Back of the document'); // a passport has no back

    await post(t, token, 'photo/front', { photo: photo(png(), 'image/png') });
    await post(t, token, 'photo/selfie', { photo: photo(jpegWithGps()) });
    expect(await (await page(t, token)).text()).toContain('received ✓');
    await post(t, token, 'submit', {});
    expect(await (await page(t, token)).text()).toContain('Thank you: your photos were sent');

    const afterSubmit = (await (await v1(t, key, 'GET', `/idv/sessions/${session.id}`)).json()) as Session;
    expect(afterSubmit.status).toBe('submitted');
    expect(afterSubmit.checks.find((c) => c.key === 'mrz')).toMatchObject({ status: 'not_run', reason: 'mrz_not_entered' });
    expect(afterSubmit.checks.find((c) => c.key === 'face_match')).toMatchObject({ status: 'not_run', reason: 'not_available' });
    expect(afterSubmit.checks.find((c) => c.key === 'liveness')).toMatchObject({ status: 'not_run', reason: 'not_available' });
    expect(await events('idv.session.submitted', session.id)).toBe(1);

    // approving before the MRZ is typed is refused: the checks run on it
    const early = await decideAs(session.id, { decision: 'approved', reason: 'document_and_selfie_match' });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { code: string }).code).toBe('MRZ_REQUIRED');

    const lines = td3('L898902C3', '740812', '340415');
    const checked = await typeMrz(session.id, lines);
    expect(checked.status).toBe(200);
    const r = (await checked.json()) as Review;
    expect(r.session.status).toBe('needs_review');
    expect(r.extracted).toMatchObject({
      lastName: 'ERIKSSON',
      documentNumber: 'L898902C3',
      dateOfBirth: '1974-08-12',
      expiryDate: '2034-04-15',
    });
    expect(Object.fromEntries(r.session.checks.map((c) => [c.key, c.status]))).toEqual({
      mrz: 'passed',
      expiry: 'passed',
      minimum_age: 'passed',
      name: 'passed',
      date_of_birth: 'passed',
      document_number: 'passed',
      face_match: 'not_run',
      liveness: 'not_run',
    });
    expect(r.assignedTo?.name).toBe('Sasha Staff');

    // the photos come through short-lived signed links, as stored: metadata gone
    expect(r.images.map((i) => i.side)).toEqual(['front', 'selfie']);
    const selfie = await t.app.request(r.images.find((i) => i.side === 'selfie')!.url!);
    expect(selfie.headers.get('content-type')).toBe('image/jpeg');
    const selfieBytes = Buffer.from(await selfie.arrayBuffer());
    expect(selfieBytes.includes(Buffer.from('Exif'))).toBe(false);
    expect(selfieBytes.equals(makeJpeg(2, 2, (bx, by) => 40 + bx * 80 + by * 60))).toBe(true);
    const front = Buffer.from(await (await t.app.request(r.images.find((i) => i.side === 'front')!.url!)).arrayBuffer());
    expect(front.includes(Buffer.from('tEXt'))).toBe(false);
    expect(sniffImage(front)).toBe('png');

    const approved = await decideAs(session.id, { decision: 'approved', reason: 'document_and_selfie_match' });
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as Review).decision).toMatchObject({
      decision: 'approved',
      reason: 'document_and_selfie_match',
      reviewer: { name: 'Sasha Staff' },
    });
    expect((await (await v1(t, key, 'GET', `/idv/sessions/${session.id}`)).json()) as Session).toMatchObject({
      status: 'approved',
      decisionReason: 'document_and_selfie_match',
    });
    expect(await events('idv.session.approved', session.id)).toBe(1);
    const audit = (await (await t.call('GET', '/audit-log', { as: STAFF })).json()) as { event: string; description: string }[];
    expect(audit.find((e) => e.event === 'idv.approved')?.description).toContain('CUST-1001');
    const search = (await (await t.call('GET', '/results/customer?customerRef=CUST-1001', { as: STAFF })).json()) as {
      results: { app: string; status: string }[];
    };
    expect(search.results).toContainEqual(expect.objectContaining({ app: 'identity-verification', status: 'success' }));
    // a decided session takes no second decision
    expect((await decideAs(session.id, { decision: 'declined', reason: 'suspected_fraud' })).status).toBe(409);
  });

  it('the review queue lists the cases waiting for a reviewer, oldest first, with who holds each', async () => {
    const older = await submitted({ customerRef: 'CUST-Q1' });
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    const newer = await submitted({ customerRef: 'CUST-Q2' });
    type Queue = {
      total: number;
      items: { id: string; customerRef: string; status: string; assignedTo: { name: string } | null; assignedToYou: boolean }[];
    };
    const queue = async () => (await (await t.call('GET', '/identity-verification/queue', { as: STAFF })).json()) as Queue;
    const ids = (q: Queue) => q.items.map((i) => i.id);
    expect(ids(await queue()).indexOf(older.id)).toBeLessThan(ids(await queue()).indexOf(newer.id));
    expect((await queue()).items.find((i) => i.id === older.id)).toMatchObject({
      status: 'submitted',
      assignedTo: null,
      assignedToYou: false,
    });

    expect((await t.call('POST', `/identity-verification/sessions/${older.id}/assign`, { as: STAFF })).status).toBe(200);
    expect((await queue()).items.find((i) => i.id === older.id)).toMatchObject({
      assignedTo: { name: 'Sasha Staff' },
      assignedToYou: true,
    });
    expect(await review(older.id)).toMatchObject({ assignedTo: { name: 'Sasha Staff' }, assignedToYou: true });

    // decided cases leave the queue
    await typeMrz(older.id, td3('Q1000001', '740812', '340415'));
    expect((await decideAs(older.id, { decision: 'declined', reason: 'suspected_fraud' })).status).toBe(200);
    expect(ids(await queue())).not.toContain(older.id);
    expect(ids(await queue())).toContain(newer.id);
  });

  it('the holder releases a case back to the queue; a case held by someone else is taken over, not released', async () => {
    const s = await submitted({ customerRef: 'CUST-HOLD' });
    const taken = (await (
      await t.call('POST', `/identity-verification/sessions/${s.id}/assign`, { as: STAFF })
    ).json()) as Review;
    expect(taken).toMatchObject({ assignedTo: { name: 'Sasha Staff' }, assignedToYou: true });
    const released = await t.call('POST', `/identity-verification/sessions/${s.id}/release`, { as: STAFF });
    expect(released.status).toBe(200);
    expect((await released.json()) as Review).toMatchObject({ assignedTo: null, assignedToYou: false });

    // another reviewer holds it: Sasha sees who, cannot release it, and may take it over
    await assignToMe(t.deps, t.account('provider').id, s.id, { ...apiCaller('Robin Reviewer', null, null), adminId: null });
    expect(await review(s.id)).toMatchObject({ assignedTo: { name: 'Robin Reviewer' }, assignedToYou: false });
    const refused = await t.call('POST', `/identity-verification/sessions/${s.id}/release`, { as: STAFF });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe('HELD_BY_ANOTHER');
    const over = (await (await t.call('POST', `/identity-verification/sessions/${s.id}/assign`, { as: STAFF })).json()) as Review;
    expect(over).toMatchObject({ assignedTo: { name: 'Sasha Staff' }, assignedToYou: true });

    const audit = (await (await t.call('GET', '/audit-log', { as: STAFF })).json()) as { event: string; description: string }[];
    expect(audit.find((e) => e.event === 'idv.released')?.description).toContain('CUST-HOLD');
    expect(audit.find((e) => e.event === 'idv.assigned' && e.description.includes('from Robin Reviewer'))?.description).toContain(
      'CUST-HOLD',
    );
  });

  it('the ICAO specimen: right check digits pass, a changed digit fails, and its 2012 expiry fails', async () => {
    const good = await submitted();
    const r = (await (await typeMrz(good.id, UTOPIA)).json()) as Review;
    expect(r.session.checks.find((c) => c.key === 'mrz')).toMatchObject({ status: 'passed', reason: 'mrz_valid' });
    expect(r.session.checks.find((c) => c.key === 'expiry')).toMatchObject({ status: 'failed', reason: 'document_expired' });
    expect(r.extracted).toMatchObject({ documentNumber: 'L898902C3', expiryDate: '2012-04-15', dateOfBirth: '1974-08-12' });

    const bad = await submitted();
    const w = (await (await typeMrz(bad.id, UTOPIA_WRONG_DIGIT)).json()) as Review;
    expect(w.session.checks.find((c) => c.key === 'mrz')).toMatchObject({ status: 'failed', reason: 'mrz_check_digit_mismatch' });

    const declined = await decideAs(good.id, { decision: 'declined', reason: 'document_expired', note: 'Expired in 2012' });
    expect(((await declined.json()) as Review).session.status).toBe('declined');
    expect(await events('idv.session.declined', good.id)).toBe(1);
    // a reason must come from the decision's list
    const wrong = await decideAs(bad.id, { decision: 'declined', reason: 'image_unreadable' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { fields: Record<string, string> }).fields.reason).toBe('Choose a reason from the list');
    // not an MRZ at all
    const junk = await typeMrz(bad.id, ['HELLO', 'WORLD']);
    expect(((await junk.json()) as Review).session.checks.find((c) => c.key === 'mrz')).toMatchObject({
      status: 'failed',
      reason: 'mrz_unreadable',
    });
  });

  it('expected name, date of birth and minimum age are checked against the MRZ', async () => {
    const s = await submitted({ expectedName: 'John Smith', expectedDateOfBirth: '1974-08-13' });
    const young = td3('X1234567', `${String((t.clock.now.getUTCFullYear() - 16) % 100).padStart(2, '0')}0101`, '340101');
    const r = (await (await typeMrz(s.id, young)).json()) as Review;
    const by = Object.fromEntries(r.session.checks.map((c) => [c.key, c.reason]));
    expect(by).toMatchObject({
      name: 'name_mismatch',
      date_of_birth: 'date_of_birth_mismatch',
      minimum_age: 'under_minimum_age',
    });
  });

  it('a document number seen in another session of this account is flagged, never across accounts', async () => {
    const lines = td3('DUP000111', '800101', '340101');
    const a = await submitted();
    await typeMrz(a.id, lines);
    const b = await submitted();
    const r = (await (await typeMrz(b.id, lines)).json()) as Review;
    expect(r.session.checks.find((c) => c.key === 'document_number')).toMatchObject({
      status: 'failed',
      reason: 'seen_in_other_session',
    });

    // the same document in another account: its own first sighting
    const acme = t.account('acme').id;
    const d = { ...t.deps };
    const other = await startSession(d, acme, { customerRef: 'A-1', phoneNumber: freshPhone() }, apiCaller('x', null, null));
    await t.db.tenant(acme, async (trx) => {
      await sql`update idv_sessions set status = 'submitted', document_type = 'passport' where id = ${other.id}`.execute(trx);
    });
    const reviewer = { ...apiCaller('Reviewer', null, null), adminId: null };
    const seen = await enterMrz(d, acme, other.id, lines, reviewer);
    expect(seen.session.checks.find((c) => c.key === 'document_number')).toMatchObject({
      status: 'passed',
      reason: 'not_seen_before',
    });
  });

  it('a request for new photos sends a new link, deletes the old photos and voids the old link', async () => {
    const s = await submitted();
    const before = await review(s.id);
    const oldUrl = before.images[0]!.url!;
    // the outbox lists by time: the new link is later than the first
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    const res = await decideAs(s.id, { decision: 'resubmission_requested', reason: 'image_unreadable' });
    expect(((await res.json()) as Review).session.status).toBe('resubmission_requested');
    expect(await events('idv.session.resubmission_requested', s.id)).toBe(1);
    expect((await t.app.request(oldUrl)).status).toBe(404);
    expect((await page(t, s.token)).status).toBe(410);
    const fresh = await lastLink(t, STAFF, s.phone);
    expect(fresh).not.toBe(s.token);
    const text = await (await page(t, fresh)).text();
    expect(text).toContain('We need new photos');
    await post(t, fresh, 'document', { documentType: 'id_card' });
    expect(await (await page(t, fresh)).text()).toContain('Back of the document');
    // an ID card needs its back: sending without it is refused
    await post(t, fresh, 'photo/front', { photo: photo(png(), 'image/png') });
    await post(t, fresh, 'photo/selfie', { photo: photo(jpegWithGps()) });
    const early = await post(t, fresh, 'submit', {});
    expect(early.headers.get('location')).toContain('error=PHOTOS_MISSING');
    await post(t, fresh, 'photo/back', { photo: photo(png(), 'image/png') });
    await post(t, fresh, 'submit', {});
    expect(((await (await v1(t, key, 'GET', `/idv/sessions/${s.id}`)).json()) as Session).status).toBe('submitted');
    expect((await review(s.id)).images.map((i) => i.side)).toEqual(['front', 'back', 'selfie']);
  });

  it('files that are not JPEG or PNG are refused by their bytes, with a clear message', async () => {
    const phone = freshPhone();
    await v1(t, key, 'POST', '/idv/sessions', { customerRef: 'CUST-9', phoneNumber: phone });
    const token = await lastLink(t, STAFF, phone);
    await post(t, token, 'document', { documentType: 'passport' });
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')]);
    const cases: [Buffer, string, string][] = [
      [gif, 'image/jpeg', 'IMAGE_TYPE'], // the browser's type claim is not believed
      [heic, 'image/heic', 'IMAGE_HEIC'],
      [Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]), 'image/jpeg', 'IMAGE_BROKEN'],
      [Buffer.alloc(8 * 1024 * 1024 + 1, 0xff), 'image/jpeg', 'IMAGE_TOO_LARGE'],
    ];
    for (const [bytes, type, code] of cases) {
      const res = await post(t, token, 'photo/front', { photo: photo(bytes, type) });
      expect(res.headers.get('location')).toBe(`/c/${token}?error=${code}&side=front#front`);
    }
    const shown = await (await page(t, token, '?error=IMAGE_HEIC&side=front')).text();
    expect(shown).toContain('role="alert"');
    expect(shown).toContain('HEIC photos cannot be accepted yet');
    const images = await t.db.system(
      async (trx) =>
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from idv_images i join idv_sessions s on s.id = i.session_id where s.phone_number = ${phone}`.execute(
            trx,
          )
        ).rows[0]!.n,
    );
    expect(images).toBe(0);
  });

  it('a JPEG loses its EXIF (GPS) segment and keeps its image bytes', () => {
    const clean = makeJpeg(3, 2, (bx) => bx * 70);
    const withGps = makeJpeg(3, 2, (bx) => bx * 70, [exifGpsSegment()]);
    expect(withGps.includes(Buffer.from('Exif\0\0'))).toBe(true);
    const out = stripJpeg(withGps)!;
    expect(out.removed).toEqual(['EXIF']);
    expect(out.bytes.equals(clean)).toBe(true);
    expect(stripJpeg(withGps.subarray(0, 30))).toBeNull();
  });

  it("one account never reaches another's sessions; other accounts' users do not see the unreleased app", async () => {
    const s = await submitted();
    const acmeKey = await apiKeyOf(t, 'owner@acme.test');
    expect((await v1(t, acmeKey, 'GET', `/idv/sessions/${s.id}`)).status).toBe(404);
    // nor can another account's key start one: the unreleased app is not there for it
    const refused = await v1(t, acmeKey, 'POST', '/idv/sessions', { customerRef: 'CUST-X', phoneNumber: freshPhone() });
    expect(refused.status).toBe(404);
    expect(
      await t.db.system(
        async (trx) =>
          (await sql<{ n: number }>`select count(*)::int as n from idv_sessions where customer_ref = 'CUST-X'`.execute(trx))
            .rows[0]!.n,
      ),
    ).toBe(0);
    expect((await t.call('GET', `/identity-verification/sessions/${s.id}`, { as: 'owner@acme.test' })).status).toBe(404);
    expect((await t.call('GET', '/identity-verification/tasks', { as: 'owner@acme.test' })).status).toBe(404);
    const list = (await (await t.call('GET', '/identity-verification/tasks', { as: STAFF })).json()) as { id: string }[];
    expect(list.map((r) => r.id)).toContain(s.id);
    const acme = t.account('acme').id;
    const files = await t.db.system(
      async (trx) =>
        (await sql<{ file_id: string }>`select file_id from idv_images where session_id = ${s.id}`.execute(trx)).rows,
    );
    expect(await t.db.tenant(acme, (trx) => readFile(t.deps, trx, acme, files[0]!.file_id))).toBeNull();
  });

  it('the agent action starts a session; cancelling it through /api/v1 voids the link', async () => {
    const phone = freshPhone();
    const res = await t.call('POST', '/identity-verification/actions/start', {
      as: STAFF,
      body: { input: { phoneNumber: phone, customerRef: 'CUST-AGENT', expectedDateOfBirth: '' } },
    });
    expect(res.status).toBe(201);
    const result = (await res.json()) as { taskId: string; status: string; message: string };
    expect(result).toMatchObject({
      status: 'link_sent',
      message: `Link sent to +1 •••• •• ${phone.slice(-4)}. Ask the caller to open it and follow the steps.`,
    });
    const bad = await t.call('POST', '/identity-verification/actions/start', {
      as: STAFF,
      body: { input: { phoneNumber: phone, customerRef: 'X', expectedDateOfBirth: '1974-02-30' } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { fields: Record<string, string> }).fields)).toEqual(['input.expectedDateOfBirth']);
    const token = await lastLink(t, STAFF, phone);
    const cancelled = await v1(t, key, 'POST', `/idv/sessions/${result.taskId}/cancel`, {});
    expect(((await cancelled.json()) as Session).status).toBe('cancelled');
    expect((await page(t, token)).status).toBe(410);
    expect((await post(t, token, 'document', { documentType: 'passport' })).headers.get('location')).toBe(`/c/${token}`);
  });

  it('a link not finished in time expires by the sweep, with its webhook', async () => {
    const phone = freshPhone();
    const { id } = (await (
      await v1(t, key, 'POST', '/idv/sessions', { customerRef: 'CUST-EXP', phoneNumber: phone })
    ).json()) as Session;
    const token = await lastLink(t, STAFF, phone);
    t.clock.now = new Date(t.clock.now.getTime() + 61 * 60_000);
    expect(await expireDueSessions(t.deps)).toBeGreaterThanOrEqual(1);
    expect(((await (await v1(t, key, 'GET', `/idv/sessions/${id}`)).json()) as Session).status).toBe('expired');
    expect(await events('idv.session.expired', id)).toBe(1);
    expect((await page(t, token)).status).toBe(410);
  });

  it('retention redacts photos, then extracted data, by the fake clock; status and times stay', async () => {
    const s = await submitted();
    await typeMrz(s.id, td3('RED000111', '800101', '340101'));
    await decideAs(s.id, { decision: 'approved', reason: 'document_and_selfie_match' });
    const provider = t.account('provider').id;
    const fileIds = await t.db.system(async (trx) =>
      (await sql<{ file_id: string }>`select file_id from idv_images where session_id = ${s.id}`.execute(trx)).rows.map(
        (r) => r.file_id,
      ),
    );
    await t.db.tenant(provider, (trx) =>
      sql`insert into storage_settings (account_id, retention) values (${provider}, ${JSON.stringify({ 'idv.images': 30, 'idv.data': 60 })}::jsonb)
        on conflict (account_id) do update set retention = excluded.retention`.execute(trx),
    );
    const started = t.clock.now;
    const jobs = async () => {
      await t.db.system((trx) =>
        sql`update jobs set next_run_at = ${t.clock.now} where name like 'idv.%' or name = 'privacy.retention'`.execute(trx),
      );
      return runDueJobs(t.deps, [...IDV_JOBS, ...PRIVACY_JOBS]);
    };
    t.clock.now = new Date(started.getTime() + 29 * DAY);
    await jobs();
    expect((await review(s.id)).imagesRedactedAt).toBeNull();

    t.clock.now = new Date(started.getTime() + 31 * DAY);
    // the one redaction job for every kind (issue 42)
    expect(await jobs()).toContain('privacy.retention');
    const r = await review(s.id);
    expect(r.imagesRedactedAt).not.toBeNull();
    expect(r.images.every((i) => i.url === null)).toBe(true);
    expect(r.extracted?.documentNumber).toBe('RED000111');
    expect(r.session).toMatchObject({ status: 'approved' });
    expect(r.session.redactedAt).toBe(t.clock.now.toISOString());
    for (const id of fileIds) expect(await t.db.tenant(provider, (trx) => readFile(t.deps, trx, provider, id))).toBeNull();
    expect(await events('idv.session.redacted', s.id)).toBe(1);

    t.clock.now = new Date(started.getTime() + 61 * DAY);
    await jobs();
    const later = await review(s.id);
    expect(later.extracted).toBeNull();
    expect(later.dataRedactedAt).toBe(t.clock.now.toISOString());
    expect(later.session.checks.find((c) => c.key === 'mrz')).toMatchObject({ status: 'passed' });
    expect(later.decision?.decision).toBe('approved');
    expect(await events('idv.session.redacted', s.id)).toBe(2);
  });
});
