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
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { apiFields, check, type FieldErrors } from '../../settings/form-errors';
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
      <span className="badge">{count.encoding}</span> {count.units} {unit} · {count.segments} {count.segments === 1 ? 'segment' : 'segments'} ({count.remaining} left in this
      segment)
      {count.unicodeCharacters.length > 0 && (
        <span className="muted">
          {' '}
          · UCS-2 because of {count.unicodeCharacters.slice(0, 5).join(' ')}
        </span>
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
}: {
  template: SmsTemplate;
  body: string;
  company: string;
  error?: string | null;
  onChange: (body: string) => void;
}) {
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
      <div className="chip-list" role="group" aria-label={`Insert a placeholder into ${template.label}`}>
        {template.placeholders.map((name) => (
          <button key={name} type="button" className="chip" onClick={() => insert(name)}>
            {`{{${name}}}`}
            {template.required.includes(name) && <span className="sr-only"> (required)</span>}
          </button>
        ))}
      </div>
      <Field label={`${template.label} message`} error={error} hint={`Required: ${template.required.map((n) => `{{${n}}}`).join(', ') || 'nothing'}`}>
        {(control) => <textarea ref={area} className="input" rows={4} maxLength={SMS_TEMPLATE_MAX} {...control} value={body} onChange={(e) => onChange(e.target.value)} />}
      </Field>
      <div className="sms-preview" aria-label={`${template.label} preview`} role="group">
        <p className="sms-preview-from">{company}</p>
        <p className="sms-bubble" data-testid="sms-preview">
          {preview || <span className="muted">The message is empty.</span>}
        </p>
      </div>
      <SegmentCounter text={preview} />
      <Button size="sm" variant="ghost" disabled={body === template.defaultBody} onClick={() => onChange(template.defaultBody)}>
        Reset to default
      </Button>
    </div>
  );
}

function TestSms({ app, message }: { app: AppDefinition; message: string }) {
  const api = useApi();
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState<SmsTestAnswer | null>(null);
  const send = async () => {
    setSent(null);
    const checked = check(SmsTestBodySchema, { phoneNumber: phone, message });
    if (!checked.ok) {
      setErrors(checked.fields);
      throw new Error('invalid');
    }
    setErrors({});
    try {
      setSent(await api.post<SmsTestAnswer>(`/${app.id}/settings/sms-content/test`, checked.value));
    } catch (error) {
      setErrors(apiFields(error) ?? { _: errorMessage(error) });
      throw error;
    }
  };
  return (
    <form className="form inline-form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Send test SMS">
      <TextField label="Phone number" type="tel" placeholder="+15551234567" value={phone} onChange={(e) => setPhone(e.target.value)} error={errors.phoneNumber ?? errors.message} />
      <Button type="submit" onClick={send} successLabel="Sent">
        Send test SMS
      </Button>
      {errors._ && (
        <p className="notice notice-error" role="alert">
          {errors._}
        </p>
      )}
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
  const content = useQuery(`${app.id}:sms-content`, (a, signal) => a.get<SmsContentAnswer>(`/${app.id}/settings/sms-content`, { signal }));
  const sms = useQuery('sms-settings', (a, signal) => a.get<SmsSettings>('/sms', { signal }));
  const [bodies, setBodies] = useState<Record<string, string> | null>(null);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const templates = content.data?.templates ?? [];
  const current = bodies ?? Object.fromEntries(templates.map((t) => [t.key, t.body]));

  const save = async () => {
    const errors = templates.map((t) => templateError(t, current[t.key] ?? '')).filter(Boolean);
    if (errors.length) throw new Error('invalid');
    const body: SmsContentBody = { templates: current };
    try {
      await api.put<SmsContentAnswer>(`/${app.id}/settings/sms-content`, body);
      setServerErrors({});
      setBodies(null);
      content.reload();
      toast.success('SMS content has been saved');
    } catch (error) {
      setServerErrors(apiFields(error) ?? {});
      toast.error('SMS content could not be saved', errorMessage(error));
      throw error;
    }
  };

  return (
    <ConfigPage app={app} title="SMS content" lead="The text messages this app sends to your customers. {{company}} is your branding name.">
      {sms.data && sms.data.provider === null && (
        <p className="notice notice-warning">
          No SMS provider is connected yet: connect one under <Link href="~/settings/sms-configuration">Settings &gt; SMS Configuration</Link> before sending.
        </p>
      )}
      <QueryState query={content}>
        {() =>
          content.data && (
            <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="SMS content">
              {templates.map((t) => (
                <Card key={t.key} title={t.label}>
                  <TemplateEditor
                    template={t}
                    body={current[t.key] ?? ''}
                    company={content.data!.company}
                    error={templateError(t, current[t.key] ?? '') ?? serverErrors[`templates.${t.key}`]}
                    onChange={(b) => setBodies({ ...current, [t.key]: b })}
                  />
                  <TestSms app={app} message={current[t.key] ?? ''} />
                </Card>
              ))}
              <div className="form-actions">
                <Button type="submit" variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved" disabled={bodies === null}>
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
