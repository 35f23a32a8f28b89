/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { accountOfHost, registerCustomerPage } from '../../customer-pages/frame';
import { resolveLink, TOKEN_PATTERN } from '../../customer-pages/links';
import { IDV_MAX_IMAGE_BYTES, IDV_SIDES, type IdvSide } from '../../contract/apps/identity-verification';
import type { Caller } from '../platform/caller';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './images';
import type { MessageKey, Translate } from '../../customer-pages/i18n/index';
import { isLocale, type Locale } from '../../contract/locales';
import { chooseDocument, customerView, IDV_LINK_PURPOSE, returnUrlOf, submitSession, uploadImage } from './service';

// The customer's page behind the SMS link: choose the document, photograph it (front, and back
// where it has one) and take a selfie, then send. Plain forms posting to this server, so it works
// with no script at all; the page's small script only shows the chosen file and a "Sending…"
// state. Every step is checked again on the server (api/apps/identity-verification/service.ts).

/** The codes a step redirects back with (?error=), each worded in the page's language. */
const ERROR_CODES = [
  'IMAGE_EMPTY',
  'IMAGE_TOO_LARGE',
  'IMAGE_HEIC',
  'IMAGE_TYPE',
  'IMAGE_BROKEN',
  'IMAGE_DIMENSIONS',
  'PHOTOS_MISSING',
  'DOCUMENT_TYPE',
  'SIDE_NOT_NEEDED',
  'SESSION_CLOSED',
  'UPLOAD_FAILED',
] as const;
export type IdvPageError = (typeof ERROR_CODES)[number];
export const IDV_PAGE_ERRORS: readonly IdvPageError[] = ERROR_CODES;
const isPageError = (code: string | null): code is IdvPageError => (ERROR_CODES as readonly string[]).includes(code ?? '');

function errorText(t: Translate, locale: Locale, code: IdvPageError): string {
  const n = new Intl.NumberFormat(locale);
  return t(`idv.error.${code}`, {
    mb: n.format(IDV_MAX_IMAGE_BYTES / 1024 / 1024),
    side: n.format(MAX_IMAGE_SIDE),
    mp: n.format(MAX_IMAGE_PIXELS / 1_000_000),
  });
}

/** A size as the caller's language writes it ("1,2 MB", "٣٤٠ كيلوبايت"). */
export function sizeText(locale: Locale, bytes: number): string {
  const mb = bytes >= 1024 * 1024;
  const value = mb ? Math.round((bytes / 1024 / 1024) * 10) / 10 : Math.max(1, Math.round(bytes / 1024));
  return new Intl.NumberFormat(locale, { style: 'unit', unit: mb ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(
    value,
  );
}

const customer = (c: Context): Caller => ({
  kind: 'api',
  actor: { id: null, firstName: 'Customer', lastName: '' },
  label: 'Customer',
  ip:
    c.req.header('x-forwarded-for')?.split(',')[0]?.trim() ||
    (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ||
    null,
  userAgent: c.req.header('user-agent') ?? null,
});

const CAPTURE: Record<IdvSide, 'environment' | 'user'> = { front: 'environment', back: 'environment', selfie: 'user' };
const DOCUMENT_KEYS: Record<string, MessageKey> = {
  passport: 'idv.doc.passport',
  id_card: 'idv.doc.id_card',
  residence_permit: 'idv.doc.residence_permit',
};

registerCustomerPage(IDV_LINK_PURPOSE, async (c, link) => {
  const deps = (c as Context<{ Variables: { deps: Deps } }>).get('deps');
  const { t, pageLocale: locale } = link;
  const view = await customerView(deps, link.accountId, link.taskId!);
  const url = new URL(c.req.url);
  const errorCode = url.searchParams.get('error');
  const errorSide = url.searchParams.get('side');
  const error = errorCode ? errorText(t, locale, isPageError(errorCode) ? errorCode : 'UPLOAD_FAILED') : null;
  // every form posts back with the page's language, and the step redirects back in it
  const base = `/c/${link.token}`;
  const lang = `?lang=${locale}`;
  const alert = (where: string | null) =>
    error && errorSide === where ? (
      <p role="alert" id={`error-${where ?? 'page'}`} class="idv-error">
        {error}
      </p>
    ) : null;
  const sideName = (side: IdvSide) => t(`idv.side.${side}`);

  if (view.status === 'submitted' || view.status === 'needs_review')
    return { title: t('idv.sent.title'), body: <p>{t('idv.sent.text')}</p> };
  if (view.status === 'approved' || view.status === 'declined')
    return { title: t('idv.finished.title'), body: <p>{t('idv.finished.text')}</p> };
  if (view.status === 'expired') return { title: t('state.expired.title'), body: <p>{t('state.expired.text')}</p> };
  if (view.status === 'cancelled') return { title: t('idv.cancelled.title'), body: <p>{t('idv.cancelled.text')}</p> };

  const chooser = (
    <form method="post" action={`${base}/idv/document${lang}`}>
      <fieldset>
        <legend>{t('idv.choose')}</legend>
        {view.documentTypes.map((key) => (
          <p>
            <label>
              <input type="radio" name="documentType" value={key} checked={view.documentType === key} required />{' '}
              {DOCUMENT_KEYS[key] ? t(DOCUMENT_KEYS[key]) : key}
            </label>
          </p>
        ))}
      </fieldset>
      {alert('document')}
      <button type="submit">{view.documentType ? t('idv.changeDocument') : t('idv.continue')}</button>
    </form>
  );
  const again = view.resubmission ? <p>{t('idv.resubmission')}</p> : null;

  if (!view.documentType) {
    return {
      title: t('idv.title'),
      body: (
        <div>
          {again}
          <p>{t('idv.intro')}</p>
          {alert(null)}
          {chooser}
        </div>
      ),
    };
  }

  const ready = view.sides.every((s) => s.received);
  const mb = new Intl.NumberFormat(locale).format(IDV_MAX_IMAGE_BYTES / 1024 / 1024);
  // the script's words, in this language; {size} and {name} are filled in the browser
  const words = {
    'data-chosen': t('idv.script.chosen', { name: '{name}', size: '{size}' }),
    'data-too-large': t('idv.script.tooLarge', { size: '{size}', mb }),
    'data-no-photo': t('idv.script.noPhoto'),
    'data-sending': t('idv.script.sending'),
    'data-limit': String(IDV_MAX_IMAGE_BYTES),
  };
  return {
    title: t('idv.title'),
    script: 'identity-verification',
    body: (
      <div data-idv {...words}>
        {again}
        {alert(null)}
        <ol aria-label={t('idv.photos')}>
          {view.sides.map((s) => (
            <li>
              {s.received ? (
                <strong>{t('idv.received', { side: sideName(s.side) })}</strong>
              ) : (
                t('idv.notYet', { side: sideName(s.side) })
              )}
            </li>
          ))}
        </ol>
        {view.sides.map((s, i) => (
          <section aria-labelledby={`h-${s.side}`} id={s.side}>
            <h2 id={`h-${s.side}`}>
              {new Intl.NumberFormat(locale).format(i + 1)}. {sideName(s.side)}
            </h2>
            <p id={`hint-${s.side}`}>{t(`idv.hint.${s.side}`)}</p>
            <form method="post" action={`${base}/idv/photo/${s.side}${lang}`} enctype="multipart/form-data" data-idv-photo>
              <p>
                <label for={`take-${s.side}`}>{s.side === 'selfie' ? t('idv.takeSelfie') : t('idv.takePhoto')}</label>
                <br />
                <input
                  id={`take-${s.side}`}
                  type="file"
                  name="photo"
                  accept="image/jpeg,image/png"
                  capture={CAPTURE[s.side]}
                  aria-describedby={`hint-${s.side}${error && errorSide === s.side ? ` error-${s.side}` : ''}`}
                />
              </p>
              <p>
                <label for={`upload-${s.side}`}>{t('idv.chooseSaved', { mb })}</label>
                <br />
                <input id={`upload-${s.side}`} type="file" name="upload" accept="image/jpeg,image/png" />
              </p>
              <p role="status" data-idv-chosen />
              {alert(s.side)}
              <button type="submit">
                {s.received ? t(`idv.replace.${s.side}`, { size: sizeText(locale, s.received.size) }) : t(`idv.send.${s.side}`)}
              </button>
            </form>
          </section>
        ))}
        <section aria-labelledby="h-send">
          <h2 id="h-send">
            {new Intl.NumberFormat(locale).format(view.sides.length + 1)}. {t('idv.review')}
          </h2>
          <form method="post" action={`${base}/idv/submit${lang}`}>
            {alert('submit')}
            {ready ? (
              <>
                <p>{t('idv.allIn')}</p>
                <button type="submit">{t('idv.sendPhotos')}</button>
              </>
            ) : (
              <p>{t('idv.addFirst')}</p>
            )}
          </form>
        </section>
        <details>
          <summary>{t('idv.another')}</summary>
          {chooser}
        </details>
      </div>
    ),
  };
});

/** The form posts of the customer page; each answers with a redirect back to the page. */
export function idvCustomerRoutes(deps: Deps) {
  const app = new Hono();
  /**
   * Back to the page, in the language it was shown in, with what went wrong and where. A
   * journey's step goes back to the journey's link (`to`), whose page shows this step's page.
   */
  const back = (c: Context, token: string, error?: string, side?: string, to?: string | null) => {
    const query = new URLSearchParams();
    const lang = c.req.query('lang');
    if (isLocale(lang)) query.set('lang', lang);
    if (error) query.set('error', error);
    if (error && side) query.set('side', side);
    const search = query.size ? `?${query}` : '';
    return c.redirect(`${to ?? `/c/${token}`}${search}${side ? `#${side}` : ''}`, 303);
  };

  /** The session this token opens for the customer, or null (the page then says why). */
  async function sessionOf(c: Context, token: string): Promise<{ accountId: string; id: string } | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const link = await resolveLink(deps.db, token, deps.now());
    if (!link || link.state !== 'ok' || link.purpose !== IDV_LINK_PURPOSE || !link.taskId) return null;
    const hostAccount = await accountOfHost(deps, c.req.header('host'));
    if (hostAccount && hostAccount !== link.accountId) return null;
    return { accountId: link.accountId, id: link.taskId };
  }

  async function step(c: Context, side: string | undefined, run: (s: { accountId: string; id: string }) => Promise<unknown>) {
    const token = c.req.param('token') ?? '';
    const session = await sessionOf(c, token);
    if (!session) return TOKEN_PATTERN.test(token) ? back(c, token) : c.redirect('/c/unknown', 303);
    const to = await returnUrlOf(deps, session.accountId, session.id);
    try {
      await run(session);
    } catch (err) {
      if (err instanceof ApiError) return back(c, token, err.code, side, to);
      deps.log('identity verification customer step failed', err);
      return back(c, token, 'UPLOAD_FAILED', side, to);
    }
    return back(c, token, undefined, side, to);
  }

  async function form(c: Context): Promise<Record<string, unknown>> {
    try {
      return (await c.req.parseBody()) as Record<string, unknown>;
    } catch {
      throw new ApiError(400, 'UPLOAD_FAILED', 'The photo could not be received.');
    }
  }

  app.post('/c/:token/idv/document', (c) =>
    step(c, 'document', async (s) => {
      const body = await form(c);
      await chooseDocument(deps, s.accountId, s.id, typeof body.documentType === 'string' ? body.documentType : '', customer(c));
    }),
  );

  app.post(
    '/c/:token/idv/photo/:side',
    bodyLimit({
      maxSize: IDV_MAX_IMAGE_BYTES + 64 * 1024,
      onError: async (c) => {
        const token = c.req.param('token') ?? '';
        const session = await sessionOf(c, token);
        const side = (IDV_SIDES as readonly string[]).includes(c.req.param('side') ?? '') ? c.req.param('side') : undefined;
        return back(c, token, 'IMAGE_TOO_LARGE', side, session ? await returnUrlOf(deps, session.accountId, session.id) : null);
      },
    }),
    (c) => {
      const side = c.req.param('side') as IdvSide;
      if (!(IDV_SIDES as readonly string[]).includes(side))
        return step(c, undefined, () => Promise.reject(new ApiError(400, 'SIDE_NOT_NEEDED', 'This photo is not needed.')));
      return step(c, side, async (s) => {
        const body = await form(c);
        // the camera's file if one was taken, otherwise the chosen one
        const file = [body.photo, body.upload].find((f): f is File => f instanceof File && f.size > 0);
        const bytes = file ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
        await uploadImage(deps, s.accountId, s.id, side, bytes, customer(c));
      });
    },
  );

  app.post('/c/:token/idv/submit', (c) => step(c, 'submit', (s) => submitSession(deps, s.accountId, s.id, customer(c))));
  return app;
}
