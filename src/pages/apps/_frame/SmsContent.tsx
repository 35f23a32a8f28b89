import { useRef, useState } from 'react';
import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  SMS_TEMPLATE_MAX,
  SmsTestBodySchema,
  type CustomerPagePreview,
  type SmsContentAnswer,
  type SmsContentBody,
  type SmsTemplate,
  type SmsTestAnswer,
} from '../../../../api/contract/platform';
import type { SmsSettings } from '../../../../api/contract/sms';
import { LOCALE_ENGLISH_NAMES, type Locale } from '../../../../api/contract/locales';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { check, FormError, useFormErrors } from '../../../ui/form';
import { ConfigPage } from './ConfigNav';
import { countSegments } from './sms-segments';
import { fillTemplate, insertPlaceholder, missingPlaceholders, unknownPlaceholders } from './template';

/** What each placeholder shows in the preview; the server fills the real values when it sends. */
export function sampleValues(company: string, extra: Record<string, string> = {}): Record<string, string> {
  return { code: '123456', company, ttl: '10', link: 'https://sb.example/c/Xq3…', ...extra };
}

export function SegmentCounter({ text }: { text: string }) {
  const count = countSegments(text);
  const unit = count.encoding === 'GSM-7' ? 'characters' : 'UCS-2 units';
  return (
    <p className="segment-counter" data-testid="segment-counter" aria-live="polite">
      <span className="badge">{count.encoding}</span> {count.units} {unit} · {count.segments}{' '}
      {count.segments === 1 ? 'segment' : 'segments'} ({count.remaining} left in this segment)
      {count.unicodeCharacters.length > 0 && (
        <span className="muted"> · UCS-2 because of {count.unicodeCharacters.slice(0, 5).join(' ')}</span>
      )}
    </p>
  );
}

export function templateError(template: SmsTemplate, body: string): string | null {
  const missing = missingPlaceholders(body, template.required);
  if (missing.length) return `The message must contain ${missing.map((n) => `{{${n}}}`).join(', ')}`;
  const unknown = unknownPlaceholders(body, template.placeholders);
  if (unknown.length) return `Unknown placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')}`;
  if (body.length > SMS_TEMPLATE_MAX) return `A message has at most ${SMS_TEMPLATE_MAX} characters`;
  return null;
}

/** One message: placeholder chips, the text, the live preview with its segment count. */
export function TemplateEditor({
  template,
  body,
  company,
  error,
  onChange,
  language,
  defaultBody = template.defaultBody,
}: {
  template: SmsTemplate;
  body: string;
  company: string;
  error?: string | null;
  onChange: (body: string) => void;
  /** the language edited, in English (absent: English, the template's own text) */
  language?: string;
  /** what "Reset to default" restores: the built-in text of that language */
  defaultBody?: string;
}) {
  const named = language ? `${template.label} (${language})` : template.label;
  const area = useRef<HTMLTextAreaElement>(null);
  const preview = fillTemplate(body, sampleValues(company));
  const insert = (name: string) => {
    const el = area.current;
    const next = insertPlaceholder(body, name, el?.selectionStart ?? body.length, el?.selectionEnd ?? body.length);
    onChange(next.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };
  return (
    <div className="template-editor">
      <div className="chip-list" role="group" aria-label={`Insert a placeholder into ${named}`}>
        {template.placeholders.map((name) => (
          <button key={name} type="button" className="chip" onClick={() => insert(name)}>
            {`{{${name}}}`}
            {template.required.includes(name) && <span className="sr-only"> (required)</span>}
          </button>
        ))}
      </div>
      <Field
        label={`${named} message`}
        error={error}
        hint={`Required: ${template.required.map((n) => `{{${n}}}`).join(', ') || 'nothing'}`}
      >
        {(control) => (
          <textarea
            ref={area}
            className="input"
            rows={4}
            maxLength={SMS_TEMPLATE_MAX}
            {...control}
            value={body}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
      <div className="sms-preview" aria-label={`${named} preview`} role="group">
        <p className="sms-preview-from">{company}</p>
        <p className="sms-bubble" data-testid="sms-preview">
          {preview || <span className="muted">The message is empty.</span>}
        </p>
      </div>
      <SegmentCounter text={preview} />
      <Button size="sm" variant="ghost" disabled={body === defaultBody} onClick={() => onChange(defaultBody)}>
        Reset to default
      </Button>
    </div>
  );
}

function TestSms({ app, message }: { app: AppDefinition; message: string }) {
  const api = useApi();
  const [phone, setPhone] = useState('');
  const formErrors = useFormErrors();
  const errors = formErrors.errors;
  const [sent, setSent] = useState<SmsTestAnswer | null>(null);
  const send = async () => {
    setSent(null);
    const checked = check(SmsTestBodySchema, { phoneNumber: phone, message });
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      setSent(await api.post<SmsTestAnswer>(`/${app.id}/settings/sms-content/test`, checked.value));
    } catch (error) {
      throw formErrors.fromAnswer(error) ?? formErrors.invalid({ _: errorMessage(error) });
    }
  };
  return (
    <form
      className="form inline-form"
      noValidate
      onSubmit={(e) => e.preventDefault()}
      aria-label="Send test SMS"
      ref={formErrors.ref}
    >
      <TextField
        label="Phone number"
        type="tel"
        placeholder="+15551234567"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        error={errors.phoneNumber ?? errors.message}
      />
      <Button type="submit" onClick={send} successLabel="Sent">
        Send test SMS
      </Button>
      <FormError message={errors._} />
      {sent && (
        <p className="notice notice-success" role="status">
          Sent through {sent.provider === 'dev-outbox' ? 'the development outbox' : sent.provider}.{' '}
          {sent.provider === 'dev-outbox' && <Link href="~/dev/sms-outbox">Open the development outbox</Link>}
        </p>
      )}
    </form>
  );
}

function PreviewLink({ app }: { app: AppDefinition }) {
  const api = useApi();
  const [failure, setFailure] = useState<string | null>(null);
  const open = async () => {
    setFailure(null);
    // open the tab now (a popup blocker allows it inside the click), then point it at the link
    const tab = window.open('', '_blank');
    try {
      const { url } = await api.get<CustomerPagePreview>(`/${app.id}/customer-page-preview`);
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else window.location.assign(url);
    } catch (error) {
      tab?.close();
      setFailure(errorMessage(error));
      throw error;
    }
  };
  return (
    <p>
      <Button variant="ghost" size="sm" onClick={open}>
        How your customers see your links
      </Button>
      {failure && (
        <span className="field-error" role="alert">
          {' '}
          {failure}
        </span>
      )}
    </p>
  );
}

/** Configuration > SMS content: every message the app sends, edited with a live preview. */
export function SmsContent({ app }: { app: AppDefinition }) {
  const api = useApi();
  const content = useQuery(`${app.id}:sms-content`, (a, signal) =>
    a.get<SmsContentAnswer>(`/${app.id}/settings/sms-content`, { signal }),
  );
  const sms = useQuery('sms-settings', (a, signal) => a.get<SmsSettings>('/sms', { signal }));
  const [bodies, setBodies] = useState<Record<string, string> | null>(null);
  const formErrors = useFormErrors();
  const serverErrors = formErrors.errors;
  const [languages, setLanguages] = useState<Record<string, Locale>>({});
  const templates = content.data?.templates ?? [];
  // English under the template's key, every other language under `<key>@<locale>`
  const loaded = Object.fromEntries(
    templates.flatMap((t) => [[t.key, t.body], ...t.translations.map((x) => [`${t.key}@${x.locale}`, x.body])]),
  );
  const current = bodies ?? loaded;
  const builtIn = (t: SmsTemplate, locale: Locale) =>
    locale === 'en' ? t.defaultBody : t.translations.find((x) => x.locale === locale)!.defaultBody;
  const keyOf = (t: SmsTemplate, locale: Locale) => (locale === 'en' ? t.key : `${t.key}@${locale}`);

  const save = async () => {
    const wrong = templates.flatMap((t) =>
      ['en' as Locale, ...t.translations.map((x) => x.locale)]
        .filter((l) => templateError(t, current[keyOf(t, l)] ?? ''))
        .map((l) => [t.key, l] as const),
    );
    if (wrong.length) {
      // a wrong text in a language not on screen is shown, so its message and focus land on it
      const [key, locale] = wrong[0]!;
      if ((languages[key] ?? 'en') !== locale && !wrong.some(([k, l]) => k === key && l === (languages[key] ?? 'en')))
        setLanguages({ ...languages, [key]: locale });
      throw formErrors.invalid({});
    }
    // a language whose text is its built-in one is saved empty: it keeps following the built-in text
    const sent: Record<string, string> = Object.fromEntries(
      Object.entries(current).map(([k, v]): [string, string] => {
        const [name, locale] = k.split('@');
        const t = templates.find((x) => x.key === name);
        return [k, locale && t && v === builtIn(t, locale as Locale) ? '' : String(v)];
      }),
    );
    const body: SmsContentBody = { templates: sent };
    try {
      await api.put<SmsContentAnswer>(`/${app.id}/settings/sms-content`, body);
      formErrors.clear();
      setBodies(null);
      content.reload();
      toast.success('SMS content has been saved');
    } catch (error) {
      const invalid = formErrors.fromAnswer(error);
      if (invalid) throw invalid;
      toast.error('SMS content could not be saved', errorMessage(error), error);
      throw error;
    }
  };

  return (
    <ConfigPage
      app={app}
      title="SMS content"
      lead="The text messages this app sends to your customers. {{company}} is your branding name."
    >
      {sms.data && sms.data.provider === null && (
        <p className="notice notice-warning">
          No SMS provider is connected yet: connect one under{' '}
          <Link href="~/settings/sms-configuration">Settings &gt; SMS Configuration</Link> before sending.
        </p>
      )}
      <QueryState query={content}>
        {() =>
          content.data && (
            <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="SMS content" ref={formErrors.ref}>
              {templates.map((t) => {
                const locale = languages[t.key] ?? 'en';
                const key = keyOf(t, locale);
                const fallBack = t.translations
                  .filter((x) => (current[`${t.key}@${x.locale}`] ?? '') === x.defaultBody)
                  .map((x) => LOCALE_ENGLISH_NAMES[x.locale]);
                return (
                  <Card key={t.key} title={t.label}>
                    <Field label={`Language of the ${t.label} message`}>
                      {(control) => (
                        <select
                          className="input"
                          {...control}
                          value={locale}
                          onChange={(e) => setLanguages({ ...languages, [t.key]: e.target.value as Locale })}
                        >
                          {(['en', ...t.translations.map((x) => x.locale)] as Locale[]).map((l) => (
                            <option key={l} value={l}>
                              {LOCALE_ENGLISH_NAMES[l]}
                              {l !== 'en' && (current[keyOf(t, l)] ?? '') === builtIn(t, l) ? ' (built-in text)' : ''}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                    <p className="muted" data-testid="sms-fallback">
                      {fallBack.length
                        ? `Built-in text (not your own) in: ${fallBack.join(', ')}.`
                        : 'Every language has your own text.'}
                    </p>
                    <TemplateEditor
                      key={key}
                      template={t}
                      body={current[key] ?? ''}
                      company={content.data!.company}
                      language={locale === 'en' ? undefined : LOCALE_ENGLISH_NAMES[locale]}
                      defaultBody={builtIn(t, locale)}
                      error={templateError(t, current[key] ?? '') ?? serverErrors[`templates.${key}`]}
                      onChange={(b) => setBodies({ ...current, [key]: b })}
                    />
                    <TestSms app={app} message={current[key] ?? ''} />
                  </Card>
                );
              })}
              <div className="form-actions">
                <Button
                  type="submit"
                  variant="primary"
                  onClick={save}
                  successLabel="Saved"
                  failureLabel="Not saved"
                  disabled={bodies === null}
                >
                  Save
                </Button>
              </div>
            </form>
          )
        }
      </QueryState>
      <PreviewLink app={app} />
    </ConfigPage>
  );
}
