import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { SMS_TEMPLATE_MAX, type SmsContentAnswer } from '../../api/contract/platform';
import { placeholdersIn, renderTemplate, templateProblem } from '../../api/apps/platform/sms';
import { appModule } from '../../api/apps';

// The bounds of an SMS template, the text an admin writes and every send renders: at most
// SMS_TEMPLATE_MAX (640) characters, storable text only (no NUL, no lone surrogate), in the saved
// templates of every language and in "Send test SMS"; and the placeholder pattern stays linear on
// input far past the cap, so the cap is not what keeps it fast.

const OTP = '/one-time-passcode';
const ADMIN = 'owner@acme.test';
const LIMIT = `A message has at most ${SMS_TEMPLATE_MAX} characters`;

/** A valid passcode template of exactly `length` characters. */
const templateOf = (length: number) => {
  const core = 'Your code is {{code}}. ';
  return core + 'x'.repeat(length - core.length);
};

describe.each(DATABASE_KINDS)('SMS template bounds (%s)', (kind) => {
  const t = useTestContext(kind);
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: ADMIN, body: { provider: 'dev-outbox' } })).status).toBe(200);
  });
  const save = (templates: Record<string, string>) =>
    t.call('PUT', `${OTP}/settings/sms-content`, { as: ADMIN, body: { templates } });
  const stored = async () =>
    ((await (await t.call('GET', `${OTP}/settings/sms-content`, { as: ADMIN })).json()) as SmsContentAnswer).templates[0]!;

  it(`a template of ${SMS_TEMPLATE_MAX} characters is saved; one more is refused naming the template, and nothing changes`, async () => {
    const longest = templateOf(SMS_TEMPLATE_MAX);
    expect(longest).toHaveLength(640);
    expect((await save({ passcode: longest })).status).toBe(200);
    expect((await stored()).body).toBe(longest);
    const over = await save({ passcode: templateOf(SMS_TEMPLATE_MAX + 1) });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'templates.passcode': LIMIT } });
    expect((await stored()).body).toBe(longest);
  });

  it('the bound holds for every language of a template, and for a 100,000-character body', async () => {
    const spanish = await save({ 'passcode@es': templateOf(SMS_TEMPLATE_MAX + 1) });
    expect(spanish.status).toBe(400);
    expect(await spanish.json()).toMatchObject({ fields: { 'templates.passcode@es': LIMIT } });
    const huge = await save({ passcode: `{{${' '.repeat(100_000)}` });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toMatchObject({ fields: { 'templates.passcode': LIMIT } });
  });

  it('a template with a NUL or a lone surrogate is refused as text that cannot be stored', async () => {
    for (const bad of ['Code {{code}}\u0000', 'Code {{code}} \uD800']) {
      const res = await save({ passcode: bad });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('NUL characters or unpaired surrogates'),
      });
    }
  });

  it('"Send test SMS" has the same bound: 640 characters sent, 641 refused and nothing sent', async () => {
    const outbox = async () => ((await (await t.call('GET', '/dev/sms-outbox', { as: ADMIN })).json()) as unknown[]).length;
    const before = await outbox();
    const ok = await t.call('POST', `${OTP}/settings/sms-content/test`, {
      as: ADMIN,
      body: { phoneNumber: '+12025557001', message: templateOf(SMS_TEMPLATE_MAX) },
    });
    expect(ok.status).toBe(200);
    const over = await t.call('POST', `${OTP}/settings/sms-content/test`, {
      as: ADMIN,
      body: { phoneNumber: '+12025557002', message: templateOf(SMS_TEMPLATE_MAX + 1) },
    });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { message: LIMIT } });
    expect(await outbox()).toBe(before + 1);
  });

  it('the placeholder pattern is linear: 100,000-character hostile bodies are read and rendered in milliseconds', () => {
    const def = appModule('one-time-passcode')!.templates[0]!;
    const hostile = [
      `{{${' '.repeat(100_000)}`,
      '{{'.repeat(50_000),
      `{{ ${'a'.repeat(100_000)} `,
      `${'{{ code '.repeat(12_500)}}}`,
    ];
    for (const body of hostile) {
      const started = performance.now();
      placeholdersIn(body);
      templateProblem(def, body);
      renderTemplate(body, { code: '123456', company: 'Acme' });
      // a backtracking blow-up on 100,000 characters takes seconds to hours
      expect(performance.now() - started, body.slice(0, 20)).toBeLessThan(200);
    }
  });
});
