/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { registerCustomerForm, registerCustomerPage, type Branding, type PageAnswer } from '../../customer-pages/frame';
import type { ResolvedLink } from '../../customer-pages/links';
import { SIG_FIELD_LABELS, type SigField } from '../../contract/apps/document-signature';
import { requestOrigin } from '../platform/request';
import { declineAsCustomer, openForSigner, sealRequest, SIGN_PURPOSE, signAsCustomer, SignerInputError, type SignerAnswers, type SignerView } from './service';

// The signer's page at /c/<token>: the pages (images rendered when the version was published,
// or light outlines when there are none), the fields as an ordinary form below them, the consent
// text, Sign, and Decline with a reason. It works without script (a typed signature); the small
// script (src/customer-pages/document-signature.ts) adds drawing a signature on a canvas.

type Link = ResolvedLink & { token: string };

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
    rules.push(`.sig-f-${f.id}{left:${(f.x * 100).toFixed(3)}%;top:${(f.y * 100).toFixed(3)}%;width:${(f.w * 100).toFixed(3)}%;height:${(f.h * 100).toFixed(3)}%}`);
  }
  return rules.join('\n');
}

function Pages({ view }: { view: SignerView }) {
  const fields = ordered(view.version.fields);
  const n = view.version.page_count;
  return (
    <section aria-label="The document">
      {view.version.page_sizes.map((_, i) => (
        <figure class="sig-figure" key={i}>
          <div class={`sig-page sig-p${i}${view.pageImageUrls[i] ? '' : ' sig-outline'}`}>
            {view.pageImageUrls[i] ? <img src={view.pageImageUrls[i]} alt={`Page ${i + 1} of ${n} of ${view.row.document_name}`} /> : <span>Page {i + 1}</span>}
            {fields.map((f, k) => (f.page === i ? <div class={`sig-box sig-f-${f.id}`} aria-hidden="true"><span>{k + 1}</span></div> : null))}
          </div>
          <figcaption>
            Page {i + 1} of {n}
          </figcaption>
        </figure>
      ))}
      <p>
        <a href={view.originalUrl}>Download the document (PDF)</a> to read it in full.
      </p>
    </section>
  );
}

function FieldInput({ field, index, view, form, problem }: { field: SigField; index: number; view: SignerView; form: Record<string, string>; problem?: string }) {
  const label = `${index}. ${field.label || SIG_FIELD_LABELS[field.kind]}${field.required ? '' : ' (optional)'}`;
  const err = problem ? <p class="sig-error" id={`err-${field.id}`}>{problem}</p> : null;
  const describedBy = problem ? `err-${field.id}` : undefined;
  if (field.kind === 'signature') {
    return (
      <fieldset data-signature={field.id}>
        <legend>{label}</legend>
        {err}
        <label>
          Type your full name as your signature
          <input type="text" name={`sig_typed_${field.id}`} value={form[`sig_typed_${field.id}`] ?? ''} autocomplete="name" aria-describedby={describedBy} maxlength={100} />
        </label>
        <div data-draw hidden>
          <p id={`draw-${field.id}`}>Or draw your signature in the box:</p>
          <canvas aria-labelledby={`draw-${field.id}`} role="img" />
          <button type="button" class="sig-secondary" data-clear>
            Clear drawing
          </button>
          <input type="hidden" name={`sig_png_${field.id}`} value="" />
        </div>
      </fieldset>
    );
  }
  if (field.kind === 'dateSigned') return <p>{index}. {field.label || 'Date signed'}: filled in with today's date when you sign.</p>;
  if (field.kind === 'checkbox') {
    return (
      <div>
        {err}
        <label>
          <input type="checkbox" name={`field_${field.id}`} checked={form[`field_${field.id}`] === 'on'} aria-describedby={describedBy} />
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
        <input type="text" name={`field_${field.id}`} value={form[`field_${field.id}`] ?? fallback} maxlength={500} aria-describedby={describedBy} autocomplete={field.kind === 'fullName' ? 'name' : 'off'} />
      </label>
    </div>
  );
}

function signPage(view: SignerView, branding: Branding, form: Record<string, string> = {}, problems: Record<string, string> = {}): PageAnswer {
  const fields = ordered(view.version.fields);
  const list = Object.values(problems);
  return {
    title: `Sign: ${view.row.document_name}`,
    css: pagesCss(view),
    script: 'document-signature',
    body: (
      <div>
        {list.length ? (
          <div class="sig-errors" role="alert">
            <p>
              <strong>Check {list.length === 1 ? 'this' : 'these'} before signing:</strong>
            </p>
            <ul>
              {list.map((p) => (
                <li>{p}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <p>
          {branding.name} asks you, {view.row.signer_name}, to sign this document. Read it, fill in the numbered fields below and sign. This link works until{' '}
          {new Date(view.row.expires_at).toISOString().slice(0, 10)}.
        </p>
        <Pages view={view} />
        <form method="post" data-sign-form>
          <input type="hidden" name="action" value="sign" />
          <h2>Your answers</h2>
          {fields.map((f, i) => (
            <FieldInput field={f} index={i + 1} view={view} form={form} problem={problems[f.id]} />
          ))}
          {problems.consent ? <p class="sig-error" id="err-consent">{problems.consent}</p> : null}
          <label>
            <input type="checkbox" name="consent" checked={form.consent === 'on'} aria-describedby={problems.consent ? 'err-consent' : undefined} />
            {view.row.consent_text}
          </label>
          <button type="submit">Sign</button>
        </form>
        <details open={Boolean(problems.reason)}>
          <summary>I do not want to sign</summary>
          <form method="post">
            <input type="hidden" name="action" value="decline" />
            {problems.reason ? <p class="sig-error" id="err-reason">{problems.reason}</p> : null}
            <label>
              Why not? The sender sees your answer.
              <textarea name="reason" rows={3} maxlength={500} aria-describedby={problems.reason ? 'err-reason' : undefined}>
                {form.reason ?? ''}
              </textarea>
            </label>
            <button type="submit">Decline</button>
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
  if (view.row.status !== 'sent' && view.row.status !== 'opened') return { title: 'This request is closed', body: <p>There is nothing left to sign here.</p> };
  return signPage(view, branding);
});

registerCustomerForm(SIGN_PURPOSE, async (c, link: Link, branding, form) => {
  const deps = depsOf(c)!;
  const origin = requestOrigin(c as never);
  try {
    if (form.action === 'decline') {
      await declineAsCustomer(deps, link.accountId, link.taskId!, link.token, form.reason ?? '', origin);
      return { title: 'You declined to sign', body: <p>We let {branding.name} know, with your reason. You can close this page.</p> };
    }
    const signed = await signAsCustomer(deps, link.accountId, link.taskId!, link.token, answersOf(form), origin);
    // sealing runs now, in the background; the job is the durable backstop
    void sealRequest(deps, link.accountId, signed.id).catch((err) => deps.log('Sealing right after signing failed; the job will retry', err));
    return {
      title: 'Signed. Thank you',
      body: (
        <div role="status">
          <p>
            You signed {signed.documentName}. {branding.name} receives the sealed document, with a certificate of completion, in a moment.
          </p>
          <p>You can close this page.</p>
        </div>
      ),
    };
  } catch (err) {
    if (err instanceof SignerInputError) {
      const view = await openForSigner(deps, link.accountId, link.taskId!, origin);
      return { ...signPage(view, branding, form, err.problems), status: 400 };
    }
    if (err instanceof ApiError && err.code === 'NOT_OPEN') return { title: 'This request is closed', body: <p>{err.message} There is nothing left to do here.</p>, status: 409 };
    throw err;
  }
});
