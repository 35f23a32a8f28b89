import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { TaskDetail, SmsContentAnswer } from '../../api/contract/platform';

// Callers' languages: the agent's choice (/api/v1 `locale`), else the account's default, else the
// browser's Accept-Language; the SMS text and the page in that language; the caller's switch on
// the page; the choice in the task's timeline; SMS content per language with its fallback.

async function apiKeyOf(t: TestContext): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

let phoneCounter = 0;
const freshPhone = () => `+1415557${String(1000 + phoneCounter++).padStart(4, '0')}`;

describe.each(DATABASE_KINDS)("Callers' languages (%s)", (kind) => {
  const t = useTestContext(kind);
  let key: string;
  const v1 = (method: string, path: string, body?: unknown) =>
    t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });
  const lastSms = async (to: string) => {
    const list = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as {
      to: string;
      body: string;
    }[];
    return list.find((m) => m.to === to)!.body;
  };
  const tokenIn = (sms: string) => sms.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
  const open = (token: string, headers: Record<string, string> = {}, query = '') =>
    t.app.request(`/c/${token}${query}`, { headers: { host: 'localhost:3000', ...headers } });
  const timeline = async (app: string, id: string) =>
    ((await (await t.call('GET', `/${app}/tasks/${id}`, { as: 'owner@acme.test' })).json()) as TaskDetail).events;
  const enroll = async (locale?: string) => {
    const phone = freshPhone();
    const res = await v1('POST', '/passkeys/enrollments', {
      customerRef: `C-${phone}`,
      phoneNumber: phone,
      displayName: 'Layla',
      ...(locale ? { locale } : {}),
    });
    return { res, phone };
  };

  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    await t.db.system(async (trx) => {
      for (const app of ['passkeys', 'one-time-passcode']) {
        await sql`insert into app_billing (account_id, app, status, credits, free_tier) values (${t.account('acme').id}, ${app}, 'subscription', 0, 1000)
          on conflict (account_id, app) do update set status = 'subscription', free_tier = 1000`.execute(trx);
      }
    });
    key = await apiKeyOf(t);
  });

  it('the agent sends in Spanish: the SMS, the page and the timeline are in Spanish', async () => {
    const { res, phone } = await enroll('es');
    expect(res.status).toBe(201);
    const task = (await res.json()) as { id: string };
    const sms = await lastSms(phone);
    expect(sms).toContain('crea una llave de acceso');
    const page = await open(tokenIn(sms), { 'accept-language': 'de' });
    const html = await page.text();
    expect(html).toContain('<html lang="es" dir="ltr">');
    expect(html).toContain('Crea una llave de acceso');
    expect(html).toContain('Hola, Layla.');
    const events = await timeline('passkeys', task.id);
    expect(events.map((e) => e.description).join('\n')).toContain("Caller's language: Spanish (the agent's choice)");
  });

  it('a language we do not have is refused with a 400 naming locale, and nothing is sent', async () => {
    const { res, phone } = await enroll('ko');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const list = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as { to: string }[];
    expect(list.some((m) => m.to === phone)).toBe(false);
  });

  it("without the agent's choice and with no account default, the page follows the browser and the SMS is English", async () => {
    const { phone } = await enroll();
    const sms = await lastSms(phone);
    expect(sms).toContain('create a passkey');
    const arabic = await (await open(tokenIn(sms), { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' })).text();
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('أنشئ مفتاح مرور');
    const english = await (await open(tokenIn(sms), { 'accept-language': 'ko-KR' })).text();
    expect(english).toContain('<html lang="en" dir="ltr">');
  });

  it("the account's default language applies when the agent chooses none, and the timeline says so", async () => {
    expect((await t.call('PUT', '/customer-language', { as: 'owner@acme.test', body: { locale: 'fr' } })).status).toBe(200);
    expect(await (await t.call('GET', '/customer-language', { as: 'owner@acme.test' })).json()).toEqual({ locale: 'fr' });
    try {
      const { res, phone } = await enroll();
      const task = (await res.json()) as { id: string };
      const sms = await lastSms(phone);
      expect(sms).toContain('créez une clé d’accès');
      expect(await (await open(tokenIn(sms), { 'accept-language': 'en' })).text()).toContain('<html lang="fr" dir="ltr">');
      expect((await timeline('passkeys', task.id)).map((e) => e.description).join('\n')).toContain(
        "Caller's language: French (the account's default)",
      );
    } finally {
      await t.call('PUT', '/customer-language', { as: 'owner@acme.test', body: { locale: null } });
    }
  });

  it('the caller switches language on the page, and every other language is offered by its own name', async () => {
    const { phone } = await enroll('de');
    const token = tokenIn(await lastSms(phone));
    const german = await (await open(token)).text();
    expect(german).toContain('Passkey erstellen');
    expect(german).toContain('<a href="?lang=ja" lang="ja" hreflang="ja">日本語</a>');
    const japanese = await (await open(token, {}, '?lang=ja')).text();
    expect(japanese).toContain('<html lang="ja" dir="ltr">');
    expect(japanese).toContain('パスキーを作成');
  });

  it('an expired or unknown link is explained in the browser language', async () => {
    const html = await (await open('x'.repeat(43), { 'accept-language': 'pt-BR' })).text();
    expect(html).toContain('Este link não funciona');
  });

  it('a default language we do not have is refused', async () => {
    expect((await t.call('PUT', '/customer-language', { as: 'owner@acme.test', body: { locale: 'xx' } })).status).toBe(400);
    expect((await t.call('GET', '/customer-language', { as: 'owner@acme.test' })).status).toBe(200);
  });

  it('SMS content lists each template in every language, saves a language of its own, and sends it', async () => {
    const before = (await (
      await t.call('GET', '/one-time-passcode/settings/sms-content', { as: 'owner@acme.test' })
    ).json()) as SmsContentAnswer;
    const passcode = before.templates.find((x) => x.key === 'passcode')!;
    expect(passcode.translations.map((x) => x.locale)).toEqual(['es', 'fr', 'de', 'pt-BR', 'ar', 'ja']);
    expect(passcode.translations.every((x) => !x.custom)).toBe(true);
    const saved = await t.call('PUT', '/one-time-passcode/settings/sms-content', {
      as: 'owner@acme.test',
      body: { templates: { 'passcode@es': 'Código {{company}}: {{code}}' } },
    });
    expect(saved.status).toBe(200);
    const after = (await saved.json()) as SmsContentAnswer;
    const es = after.templates.find((x) => x.key === 'passcode')!.translations.find((x) => x.locale === 'es')!;
    expect(es).toMatchObject({ custom: true, body: 'Código {{company}}: {{code}}' });
    const phone = freshPhone();
    expect((await v1('POST', '/otp/send', { phoneNumber: phone, locale: 'es' })).status).toBe(201);
    expect(await lastSms(phone)).toMatch(/^Código Acme Support: \d{6}$/);
    const french = freshPhone();
    expect((await v1('POST', '/otp/send', { phoneNumber: french, locale: 'fr' })).status).toBe(201);
    expect(await lastSms(french)).toMatch(/^Votre code Acme Support est \d{6}\./);
  });

  it('a text for a language we do not have, or missing its required placeholder, is refused', async () => {
    const unknown = await t.call('PUT', '/one-time-passcode/settings/sms-content', {
      as: 'owner@acme.test',
      body: { templates: { 'passcode@xx': 'Code {{code}}' } },
    });
    expect(unknown.status).toBe(400);
    const missing = await t.call('PUT', '/one-time-passcode/settings/sms-content', {
      as: 'owner@acme.test',
      body: { templates: { 'passcode@de': 'Ihr Code' } },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ fields: { 'templates.passcode@de': 'The message must contain {{code}}' } });
  });
});
