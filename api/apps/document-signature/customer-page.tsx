/** @jsxImportSource hono/jsx */
import { customerDate } from '../../customer-pages/dates';
import type { Context } from 'hono';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import {
  registerCustomerForm,
  registerCustomerPage,
  type Branding,
  type PageAnswer,
  type PageLink,
} from '../../customer-pages/frame';
import type { MessageKey, Translate } from '../../customer-pages/i18n/index';
import {
  SIG_DEFAULT_SETTINGS,
  SIG_FIELD_LABELS,
  SIG_PAGE_IMAGE_WIDTH,
  SIG_SMALL_PAGE_WIDTH,
  type SigField,
  type SigFieldKind,
} from '../../contract/apps/document-signature';
import { requestOrigin } from '../platform/request';
import { SIG_COPY_PURPOSE, sendSignerCopy, signerCopy } from './signer-copy';
import {
  declineAsCustomer,
  openForSigner,
  sealRequest,
  SIGN_PURPOSE,
  signAsCustomer,
  SignerInputError,
  signerPageImage,
  type SignerAnswers,
  type SignerProblem,
  type SignerView,
} from './service';
import { Hono } from 'hono';
import { accountOfHost } from '../../customer-pages/frame';
import { resolveLink, TOKEN_PATTERN } from '../../customer-pages/links';

// The signer's page at /c/<token>: the pages (images rendered when the version was published,
// or light outlines when there are none), the fields as an ordinary form below them, the consent
// text, Sign, and Decline with a reason. It works without script (a typed signature); the small
// script (src/customer-pages/document-signature.ts) adds drawing a signature on a canvas. Page
// images after the first load lazily (their box keeps its aspect ratio, so nothing shifts).

type Link = PageLink;

/** A field's default label (when the sender gave it none), in the signer's language. */
const KIND_KEYS: Record<SigFieldKind, MessageKey> = {
  signature: 'sig.kind.signature',
  initials: 'sig.kind.initials',
  fullName: 'sig.kind.fullName',
  dateSigned: 'sig.kind.dateSigned',
  text: 'sig.kind.text',
  checkbox: 'sig.kind.checkbox',
};

/** The account's consent text: the built-in one is shown in the signer's language, an account's own words as written. */
export function consentShown(consentText: string, t: Translate): string {
  return consentText.trim() === SIG_DEFAULT_SETTINGS.consentText ? t('sig.consent') : consentText;
}

/**
 * A field's name as the signer's page shows it: the label the sender chose, or, when they chose
 * none, its kind's name in the signer's language. A label that is just the kind's English name
 * is the console's old default (it stored "Checkbox" as the label): that is no choice either.
 */
const fieldName = (field: SigField, t: Translate) =>
  field.label.trim() && field.label.trim() !== SIG_FIELD_LABELS[field.kind] ? field.label : t(KIND_KEYS[field.kind]);

/** What stops the signer, in their language: per field ("1. Signature: sign by drawing…") and for the form's own boxes. */
function problemWords(fields: SigField[], problems: Record<string, SignerProblem>, t: Translate): Record<string, string> {
  const order = ordered(fields);
  const words: Record<string, string> = {};
  for (const [id, p] of Object.entries(problems)) {
    const text = t(`sig.problem.${p.code}`, p.code === 'tooLong' ? { max: p.max } : undefined);
    const index = order.findIndex((f) => f.id === id);
    words[id] = index < 0 ? text : t('sig.problemIn', { label: `${index + 1}. ${fieldName(order[index]!, t)}`, problem: text });
  }
  return words;
}

const depsOf = (c: Context) => (c as unknown as { var: { deps?: Deps } }).var.deps;

/** Fields in reading order: by page, then top to bottom, then left to right. */
const ordered = (fields: SigField[]) => [...fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);

function pagesCss(view: SignerView): string {
  const rules: string[] = [
    '.sig-page{position:relative;background:#fff;border:1px solid #D1D5DB;margin:0 0 12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}',
    '.sig-page img{display:block;width:100%;height:auto}',
    '.sig-outline{display:flex;align-items:center;justify-content:center;color:#4B5563;font-size:.9rem}',
    '.sig-box{position:absolute;border:2px solid #7C3AED;background:rgba(124,58,237,.08);border-radius:2px}',
    '.sig-box span{position:absolute;top:-10px;left:-10px;min-width:20px;height:20px;border-radius:10px;background:#7C3AED;color:#fff;font-size:12px;line-height:20px;text-align:center}',
    'figcaption{font-size:.85rem;color:#4B5563;margin:4px 0 16px}',
    'fieldset{border:1px solid #D1D5DB;border-radius:6px;margin:0 0 12px;padding:8px 12px}',
    'label{display:block;margin:8px 0}input[type=text],textarea{display:block;width:100%;font:inherit;padding:8px;border:1px solid #6B7280;border-radius:6px;min-height:44px}',
    'input[type=checkbox]{width:22px;height:22px;vertical-align:middle;margin-right:8px}',
    '.sig-error{color:#B91C1C;font-weight:600}.sig-errors{border:2px solid #B91C1C;border-radius:6px;padding:8px 12px;margin:0 0 16px;background:#FEF2F2}',
    'canvas{display:block;width:100%;height:140px;border:1px dashed #6B7280;border-radius:6px;background:#fff;touch-action:none}',
    '.sig-secondary{background:#fff;color:#111827;border:1px solid #6B7280;margin-top:8px}',
    'details{margin-top:24px}summary{cursor:pointer;min-height:44px;line-height:44px;text-decoration:underline}',
  ];
  view.version.page_sizes.forEach((p, i) => rules.push(`.sig-p${i}{aspect-ratio:${p.width}/${p.height}}`));
  for (const f of view.version.fields) {
    rules.push(
      `.sig-f-${f.id}{left:${(f.x * 100).toFixed(3)}%;top:${(f.y * 100).toFixed(3)}%;width:${(f.w * 100).toFixed(3)}%;height:${(f.h * 100).toFixed(3)}%}`,
    );
  }
  return rules.join('\n');
}

/** A page image's address: the link's, the page, the width and the content's hash; it never changes while the link lives. */
const pageImageUrl = (token: string, page: number, size: 'l' | 's', hash: string) =>
  `/c/${token}/pages/${page + 1}-${size}-${hash}.jpg`;
/** main is 32rem wide less 16 px each side; narrower screens show the page across less the same */
const PAGE_SIZES = '(min-width: 32rem) 480px, calc(100vw - 32px)';

function PageImage({ view, token, index, alt }: { view: SignerView; token: string; index: number; alt: string }) {
  const image = view.pageImages[index]!;
  const large = pageImageUrl(token, index, 'l', image.large);
  const srcset = image.small
    ? `${pageImageUrl(token, index, 's', image.small)} ${SIG_SMALL_PAGE_WIDTH}w, ${large} ${SIG_PAGE_IMAGE_WIDTH}w`
    : undefined;
  // the first page at once and before anything else (it is the page's largest paint); the others
  // when scrolled near (their box keeps its ratio meanwhile)
  return (
    <img
      src={large}
      srcset={srcset}
      sizes={srcset ? PAGE_SIZES : undefined}
      loading={index === 0 ? 'eager' : 'lazy'}
      fetchpriority={index === 0 ? 'high' : undefined}
      decoding="async"
      alt={alt}
    />
  );
}

function Pages({ view, t, token }: { view: SignerView; t: Translate; token: string }) {
  const fields = ordered(view.version.fields);
  const n = view.version.page_count;
  return (
    <section aria-label={t('sig.document')}>
      {view.version.page_sizes.map((_, i) => (
        <figure class="sig-figure" key={i}>
          <div class={`sig-page sig-p${i}${view.pageImages[i] ? '' : ' sig-outline'}`}>
            {view.pageImages[i] ? (
              <PageImage
                view={view}
                token={token}
                index={i}
                alt={t('sig.pageAlt', { page: i + 1, pages: n, document: view.row.document_name })}
              />
            ) : (
              <span>{t('sig.page', { page: i + 1 })}</span>
            )}
            {fields.map((f, k) =>
              f.page === i ? (
                <div class={`sig-box sig-f-${f.id}`} aria-hidden="true">
                  <span>{k + 1}</span>
                </div>
              ) : null,
            )}
          </div>
          <figcaption>{t('sig.pageOf', { page: i + 1, pages: n })}</figcaption>
        </figure>
      ))}
      <p>
        <a href={view.originalUrl}>{t('sig.download')}</a>
      </p>
    </section>
  );
}

function FieldInput({
  field,
  index,
  view,
  form,
  problem,
  t,
}: {
  field: SigField;
  index: number;
  view: SignerView;
  form: Record<string, string>;
  problem?: string;
  t: Translate;
}) {
  const named = fieldName(field, t);
  const label = `${index}. ${field.required ? named : t('sig.optional', { label: named })}`;
  const err = problem ? (
    <p class="sig-error" id={`err-${field.id}`}>
      {problem}
    </p>
  ) : null;
  const describedBy = problem ? `err-${field.id}` : undefined;
  if (field.kind === 'signature') {
    return (
      <fieldset data-signature={field.id}>
        <legend>{label}</legend>
        {err}
        <label>
          {t('sig.typeName')}
          <input
            type="text"
            name={`sig_typed_${field.id}`}
            value={form[`sig_typed_${field.id}`] ?? ''}
            autocomplete="name"
            aria-describedby={describedBy}
            maxlength={100}
          />
        </label>
        <div data-draw hidden>
          <p id={`draw-${field.id}`}>{t('sig.draw')}</p>
          <canvas aria-labelledby={`draw-${field.id}`} role="img" />
          <button type="button" class="sig-secondary" data-clear>
            {t('sig.clear')}
          </button>
          <input type="hidden" name={`sig_png_${field.id}`} value="" />
        </div>
      </fieldset>
    );
  }
  if (field.kind === 'dateSigned') return <p>{t('sig.dateFilled', { label: `${index}. ${named}` })}</p>;
  if (field.kind === 'checkbox') {
    return (
      <div>
        {err}
        <label>
          <input
            type="checkbox"
            name={`field_${field.id}`}
            checked={form[`field_${field.id}`] === 'on'}
            aria-describedby={describedBy}
          />
          {label}
        </label>
      </div>
    );
  }
  const fallback = field.kind === 'fullName' ? view.row.signer_name : '';
  return (
    <div>
      {err}
      <label>
        {label}
        <input
          type="text"
          name={`field_${field.id}`}
          value={form[`field_${field.id}`] ?? fallback}
          maxlength={500}
          aria-describedby={describedBy}
          autocomplete={field.kind === 'fullName' ? 'name' : 'off'}
        />
      </label>
    </div>
  );
}

function signPage(
  view: SignerView,
  branding: Branding,
  link: Link,
  form: Record<string, string> = {},
  refused: Record<string, SignerProblem> = {},
): PageAnswer {
  const { t } = link;
  const problems = problemWords(view.version.fields, refused, t);
  const until = customerDate(view.row.expires_at, link.pageLocale, link.timeZone);
  const fields = ordered(view.version.fields);
  const list = Object.values(problems);
  return {
    title: t('sig.title', { document: view.row.document_name }),
    css: pagesCss(view),
    script: 'document-signature',
    body: (
      <div>
        {list.length ? (
          <div class="sig-errors" role="alert">
            <p>
              <strong>{t('sig.errorsHeading', { n: list.length })}</strong>
            </p>
            <ul>
              {list.map((p) => (
                <li>{p}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <p>{t('sig.intro', { company: branding.name, signer: view.row.signer_name, date: until })}</p>
        <Pages view={view} t={t} token={link.token} />
        <form method="post" data-sign-form>
          <input type="hidden" name="action" value="sign" />
          <h2>{t('sig.answers')}</h2>
          {fields.map((f, i) => (
            <FieldInput field={f} index={i + 1} view={view} form={form} problem={problems[f.id]} t={t} />
          ))}
          {problems.consent ? (
            <p class="sig-error" id="err-consent">
              {problems.consent}
            </p>
          ) : null}
          <label>
            <input
              type="checkbox"
              name="consent"
              checked={form.consent === 'on'}
              aria-describedby={problems.consent ? 'err-consent' : undefined}
            />
            {consentShown(view.row.consent_text, t)}
          </label>
          <button type="submit">{t('sig.sign')}</button>
        </form>
        <details open={Boolean(problems.reason)}>
          <summary>{t('sig.decline.summary')}</summary>
          <form method="post">
            <input type="hidden" name="action" value="decline" />
            {problems.reason ? (
              <p class="sig-error" id="err-reason">
                {problems.reason}
              </p>
            ) : null}
            <label>
              {t('sig.decline.why')}
              <textarea name="reason" rows={3} maxlength={500} aria-describedby={problems.reason ? 'err-reason' : undefined}>
                {form.reason ?? ''}
              </textarea>
            </label>
            <button type="submit">{t('sig.decline.button')}</button>
          </form>
        </details>
      </div>
    ),
  };
}

function answersOf(form: Record<string, string>): SignerAnswers {
  const values: Record<string, string> = {};
  const signatures: SignerAnswers['signatures'] = {};
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith('field_')) values[key.slice(6)] = value;
    else if (key.startsWith('sig_typed_')) (signatures[key.slice(10)] ??= {}).typed = value;
    else if (key.startsWith('sig_png_') && value) (signatures[key.slice(8)] ??= {}).pngDataUrl = value;
  }
  return { values, signatures, consent: form.consent === 'on' };
}

registerCustomerPage(SIGN_PURPOSE, async (c, link: Link, branding) => {
  const deps = depsOf(c)!;
  const view = await openForSigner(deps, link.accountId, link.taskId!, requestOrigin(c as never));
  if (view.row.status !== 'sent' && view.row.status !== 'opened')
    return { title: link.t('sig.closed.title'), body: <p>{link.t('sig.closed.text')}</p> };
  return signPage(view, branding, link);
});

registerCustomerForm(SIGN_PURPOSE, async (c, link: Link, branding, form) => {
  const deps = depsOf(c)!;
  const origin = requestOrigin(c as never);
  try {
    if (form.action === 'decline') {
      await declineAsCustomer(deps, link.accountId, link.taskId!, link.token, form.reason ?? '', origin);
      return { title: link.t('sig.declined.title'), body: <p>{link.t('sig.declined.text', { company: branding.name })}</p> };
    }
    const signed = await signAsCustomer(deps, link.accountId, link.taskId!, link.token, answersOf(form), origin, link.pageLocale);
    // sealing runs now, in the background; the job is the durable backstop
    void sealRequest(deps, link.accountId, signed.id).catch((err) =>
      deps.log('Sealing right after signing failed; the job will retry', err),
    );
    // the copy's link by the channel the request came by (SMS); never a reason to fail the signing
    await sendSignerCopy(deps, link.accountId, signed.id, signed.copyToken).catch((err) =>
      deps.log('The signed copy could not be texted', err),
    );
    return {
      title: link.t('sig.signed.title'),
      body: (
        <div role="status">
          <p>{link.t('sig.signed.text', { document: signed.documentName, company: branding.name })}</p>
          <p>
            <a href={`/c/${signed.copyToken}`} data-testid="signer-copy">
              {link.t('sig.copy.download')}
            </a>
          </p>
          <p>{link.t('sig.close')}</p>
        </div>
      ),
    };
  } catch (err) {
    if (err instanceof SignerInputError) {
      const view = await openForSigner(deps, link.accountId, link.taskId!, origin);
      return { ...signPage(view, branding, link, form, err.problems), status: 400 };
    }
    if (err instanceof ApiError && err.code === 'NOT_OPEN')
      return { title: link.t('sig.closed.title'), body: <p>{link.t('sig.closed.text')}</p>, status: 409 };
    throw err;
  }
});

// The copy link (signer-copy.ts): the sealed PDF to download while the link lives.
registerCustomerPage(SIG_COPY_PURPOSE, async (c, link: Link) => {
  const copy = await signerCopy(depsOf(c)!, link.accountId, link.taskId!);
  if (copy.state === 'gone') return { status: 410, title: link.t('sig.copy.title'), body: <p>{link.t('sig.copy.gone')}</p> };
  if (copy.state === 'preparing')
    return { title: link.t('sig.copy.title'), body: <p role="status">{link.t('sig.copy.preparing')}</p> };
  return {
    title: link.t('sig.copy.title'),
    body: (
      <>
        <p>
          {link.t('sig.copy.ready', {
            document: copy.documentName,
            date: customerDate(link.expiresAt, link.pageLocale, link.timeZone),
          })}
        </p>
        <p>
          <a href={copy.url} download data-testid="signer-copy-file">
            {link.t('sig.copy.file', { document: copy.documentName })}
          </a>
        </p>
      </>
    ),
  };
});

/**
 * The signer's page images: `/c/<token>/pages/<page>-<l|s>-<hash>.jpg`. The address names the
 * content (its hash), so it never changes while the link lives and the phone keeps the image
 * that long (private, immutable): a second visit downloads no page again. It answers only while
 * the link is usable, on the link's own host.
 */
export function signatureCustomerRoutes(deps: Deps) {
  const app = new Hono();
  app.get('/c/:token/pages/:file', async (c) => {
    const token = c.req.param('token');
    const m = /^(\d{1,4})-([ls])-([0-9a-f]{16})\.jpg$/.exec(c.req.param('file'));
    const link = m && TOKEN_PATTERN.test(token) ? await resolveLink(deps.db, token, deps.now()) : null;
    const hostAccount = link ? await accountOfHost(deps, c.req.header('host')) : null;
    if (
      !m ||
      !link ||
      link.state !== 'ok' ||
      link.purpose !== SIGN_PURPOSE ||
      !link.taskId ||
      (hostAccount && hostAccount !== link.accountId)
    ) {
      return c.body(null, 404, { 'cache-control': 'no-store' });
    }
    const bytes = await signerPageImage(
      deps,
      link.accountId,
      link.taskId,
      Number(m[1]) - 1,
      m[2] === 's' ? 'small' : 'large',
      m[3]!,
    );
    if (!bytes) return c.body(null, 404, { 'cache-control': 'no-store' });
    const seconds = Math.max(0, Math.floor((link.expiresAt.getTime() - deps.now().getTime()) / 1000));
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': 'image/jpeg',
      'cache-control': `private, max-age=${seconds}, immutable`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });
  return app;
}
