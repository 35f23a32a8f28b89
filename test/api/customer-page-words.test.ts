import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { ADMIN, freshPhone, lastLink, publishedDocument, v1 as sigV1 } from '../support/signature-flow';
import { translate } from '../../api/customer-pages/i18n/index';

// Every word a caller reads is in their language, not only the page's frame: the identity
// verification steps and the refusals they redirect with, an e-form's field messages (on the
// server's answer and in the words handed to the page's script), the signature page's
// per-field problems and the built-in consent text, and the passkey script's API refusals.

const PROVIDER = 'staff@provider.test';

/** The text a person reads: no tags, no script or style, entities as they show. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** English words a translated page must not show (the language switch names English by its own name). */
const ENGLISH = /\b(the|your|photo|photos|send|document|choose|please|field|required|sign|this|tick|again)\b/i;

async function keyOf(t: TestContext, as: string): Promise<string> {
  return ((await (await t.call('GET', '/accounts/developer', { as })).json()) as { secretKey: string }).secretKey;
}

describe.each(DATABASE_KINDS)('Words on customer pages in the caller’s language (%s)', (kind) => {
  const t = useTestContext(kind);
  const post = (path: string, form: Record<string, string> | FormData) =>
    t.app.request(path, {
      method: 'POST',
      headers:
        form instanceof FormData
          ? { host: 'localhost:3000' }
          : { host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      body: form instanceof FormData ? form : new URLSearchParams(form).toString(),
    });
  const get = (path: string) => t.app.request(path, { headers: { host: 'localhost:3000' } });
  const smsTo = async (as: string, to: string) => {
    const list = (await (await t.call('GET', '/dev/sms-outbox', { as })).json()) as { to: string; body: string }[];
    return list.find((m) => m.to === to)!.body;
  };
  const tokenIn = (sms: string) => sms.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;

  beforeAll(async () => {
    for (const as of [PROVIDER, ADMIN])
      expect((await t.call('POST', '/sms', { as, body: { provider: 'dev-outbox' } })).status).toBe(200);
  });

  it('identity verification in Arabic: every step, hint and refusal is Arabic, and each step returns to the page in Arabic', async () => {
    const key = await keyOf(t, PROVIDER);
    const phone = freshPhone();
    const started = await t.call('POST', '/v1/idv/sessions', {
      body: { customerRef: 'CUST-AR', phoneNumber: phone, locale: 'ar' },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(started.status).toBe(201);
    const token = tokenIn(await smsTo(PROVIDER, phone));
    const tr = (k: Parameters<typeof translate>[1], v?: Parameters<typeof translate>[2]) => translate('ar', k, v);

    const first = await (await get(`/c/${token}`)).text();
    expect(first).toContain('<html lang="ar" dir="rtl">');
    expect(first).toContain(tr('idv.intro'));
    expect(first).toContain(tr('idv.doc.passport'));
    expect(first).toContain(`action="/c/${token}/idv/document?lang=ar"`);
    expect(visibleText(first)).not.toMatch(ENGLISH);

    // the choice posts with the page's language and comes back in it
    const chosen = await post(`/c/${token}/idv/document?lang=ar`, { documentType: 'passport' });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe(`/c/${token}?lang=ar#document`);
    const steps = await (await get(`/c/${token}?lang=ar`)).text();
    for (const words of [
      tr('idv.side.front'),
      tr('idv.hint.front'),
      tr('idv.hint.selfie'),
      tr('idv.takeSelfie'),
      tr('idv.send.front'),
      tr('idv.addFirst'),
      tr('idv.another'),
    ])
      expect(steps).toContain(words);
    expect(steps).toContain(tr('idv.chooseSaved', { mb: new Intl.NumberFormat('ar').format(8) }));
    // the script's words, for what it fills in the browser
    expect(steps).toContain(`data-sending="${tr('idv.script.sending')}"`);
    expect(steps).toContain(`data-no-photo="${tr('idv.script.noPhoto')}"`);
    expect(visibleText(steps)).not.toMatch(ENGLISH);

    // an empty photo is refused: back to the page, still in Arabic, with the refusal in Arabic
    const form = new FormData();
    form.set('photo', new File([], 'empty.jpg', { type: 'image/jpeg' }));
    const refused = await post(`/c/${token}/idv/photo/front?lang=ar`, form);
    expect(refused.headers.get('location')).toBe(`/c/${token}?lang=ar&error=IMAGE_EMPTY&side=front#front`);
    const shown = await (await get(`/c/${token}?lang=ar&error=IMAGE_EMPTY&side=front`)).text();
    expect(shown).toContain(`<p role="alert" id="error-front" class="idv-error">${tr('idv.error.IMAGE_EMPTY')}</p>`);
    const tooLarge = await (await get(`/c/${token}?lang=ar&error=IMAGE_TOO_LARGE&side=front`)).text();
    expect(tooLarge).toContain(tr('idv.error.IMAGE_TOO_LARGE', { mb: new Intl.NumberFormat('ar').format(8) }));
    // an unknown code is the general refusal, never the raw code
    const odd = await (await get(`/c/${token}?lang=ar&error=NOPE&side=front`)).text();
    expect(odd).toContain(tr('idv.error.UPLOAD_FAILED'));
    expect(odd).not.toContain('NOPE');
  });

  it('an e-form refused in German: each field message is German on the page and in the words handed to its script', async () => {
    const created = await t.call('POST', '/e-form/forms', {
      as: ADMIN,
      body: {
        definition: {
          title: 'Adressänderung',
          description: '',
          hiddenFields: [],
          fields: [
            { id: 'email', type: 'email', label: 'E-Mail', required: true },
            { id: 'code', type: 'short_text', label: 'Kundennummer', required: false, validation: { minLength: 6 } },
            { id: 'from', type: 'date', label: 'Umzugsdatum', required: false, validation: { minDate: '2026-03-01' } },
            { id: 'ok', type: 'consent', label: 'Ich bestätige', required: true },
          ],
        },
      },
    });
    expect(created.status).toBe(201);
    const formId = ((await created.json()) as { id: string }).id;
    expect((await t.call('POST', `/e-form/forms/${formId}/publish`, { as: ADMIN, body: { confirm: true } })).status).toBe(200);
    const phone = freshPhone();
    expect(
      (
        await t.call('POST', `/v1/forms/${formId}/requests`, {
          body: { phoneNumber: phone, locale: 'de' },
          headers: { authorization: `Bearer ${await keyOf(t, ADMIN)}` },
        })
      ).status,
    ).toBe(201);
    const token = tokenIn(await smsTo(ADMIN, phone));

    const page = await (await get(`/c/${token}`)).text();
    const data = JSON.parse(/<script type="application\/json" id="ef-definition">([\s\S]*?)<\/script>/.exec(page)![1]!) as {
      messages: Record<string, Record<string, string>>;
    };
    expect(data.messages.email).toMatchObject({
      required: 'Dieses Feld ist erforderlich',
      email: translate('de', 'eform.problem.email'),
    });
    expect(data.messages.code!.minLength).toBe('Verwenden Sie mindestens 6 Zeichen');
    expect(data.messages.from!.minDate).toBe('Geben Sie den 1. März 2026 oder ein späteres Datum ein');
    expect(data.messages.ok!.requiredConsent).toBe(translate('de', 'eform.problem.requiredConsent'));

    const refused = await post(`/c/${token}`, { email: 'nicht-gueltig', code: 'abc', from: '2026-01-15' });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(`data-error-for="email">${translate('de', 'eform.problem.email')}<`);
    expect(html).toContain('data-error-for="code">Verwenden Sie mindestens 6 Zeichen<');
    expect(html).toContain('data-error-for="from">Geben Sie den 1. März 2026 oder ein späteres Datum ein<');
    expect(html).toContain(`data-error-for="ok">${translate('de', 'eform.problem.requiredConsent')}<`);
    expect(html).toContain(translate('de', 'eform.correct', { n: 4 }));

    // sent, then the same link again: spent, said in German
    expect((await post(`/c/${token}`, { email: 'kim@beispiel.de', ok: 'yes' })).status).toBe(200);
    const again = await (await get(`/c/${token}`)).text();
    expect(again).toContain(translate('de', 'state.used.title'));
  });

  it('the signature page in French: each field’s problem and the consent box are French; an account’s own consent text is shown as written', async () => {
    expect((await t.call('POST', '/document-signature/billing/free-trial', { as: ADMIN, body: {} })).status).toBe(201);
    const key = await keyOf(t, ADMIN);
    const doc = await publishedDocument(t);
    const phone = freshPhone();
    expect(
      (
        await sigV1(t, key, 'POST', '/signatures', {
          documentId: doc.id,
          phoneNumber: phone,
          signerName: 'Amélie Poulain',
          locale: 'fr',
        })
      ).status,
    ).toBe(201);
    const token = await lastLink(t, phone);
    const view = await (await get(`/c/${token}`)).text();
    expect(view).toContain(translate('fr', 'sig.consent'));
    expect(view).not.toContain('I agree that my electronic signature');

    const refused = await post(`/c/${token}`, { action: 'sign', field_name1: '' });
    expect(refused.status).toBe(400);
    const html = visibleText(await refused.text());
    expect(html).toContain(translate('fr', 'sig.errorsHeading', { n: 4 }));
    // fields named only by their kind ("Full name", "Signature") read in French; the sender's own label as written
    expect(html).toContain(`1. ${translate('fr', 'sig.kind.fullName')} : ${translate('fr', 'sig.problem.required')}`);
    expect(html).toContain(`2. ${translate('fr', 'sig.kind.signature')} : ${translate('fr', 'sig.problem.signRequired')}`);
    expect(html).toContain(`3. I read page 2 : ${translate('fr', 'sig.problem.tick')}`);
    expect(html).not.toContain('Full name');
    expect(html).toContain(translate('fr', 'sig.problem.consent'));
    const declined = visibleText(await (await post(`/c/${token}`, { action: 'decline', reason: '' })).text());
    expect(declined).toContain(translate('fr', 'sig.problem.reason'));

    // the account's own words are the account's: shown as written, in any language
    const own = 'Je signe électroniquement ce document, selon les conditions de notre contrat.';
    expect(
      (
        await t.call('PUT', '/document-signature/settings/general', {
          as: ADMIN,
          body: { defaultExpiryDays: 7, consentText: own },
        })
      ).status,
    ).toBe(200);
    const phone2 = freshPhone();
    await sigV1(t, key, 'POST', '/signatures', {
      documentId: doc.id,
      phoneNumber: phone2,
      signerName: 'Nino Quincampoix',
      locale: 'ja',
    });
    const ownPage = await (await get(`/c/${await lastLink(t, phone2)}`)).text();
    expect(ownPage).toContain(own);
  });

  it('the passkey script’s refusals come in the page’s language (?lang=), with the same status and code', async () => {
    const unknown = await t.app.request(`/api/c/${'x'.repeat(43)}/passkey/options?lang=ja`, {
      method: 'POST',
      headers: { host: 'localhost:3000' },
    });
    expect(unknown.status).toBe(410);
    expect(await unknown.json()).toEqual({
      requestId: expect.any(String),
      code: 'LINK_NOT_USABLE',
      message: translate('ja', 'passkey.error.unknown'),
    });
    const bad = await t.app.request(`/api/c/${'x'.repeat(43)}/passkey/abandoned?lang=es`, {
      method: 'POST',
      headers: { host: 'localhost:3000', 'content-type': 'application/json' },
      body: '{"reason":"nope"}',
    });
    // an answer the page's script should never send is refused as such, in words the caller can read
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      requestId: expect.any(String),
      code: 'VALIDATION_FAILED',
      message: translate('es', 'passkey.somethingWrong'),
    });
    // without a language the page's browser decides, and English is the last resort
    const english = await t.app.request(`/api/c/short/passkey/options`, { method: 'POST', headers: { host: 'localhost:3000' } });
    expect(await english.json()).toEqual({
      requestId: expect.any(String),
      code: 'LINK_NOT_USABLE',
      message: translate('en', 'passkey.error.unknown'),
    });
  });
});
