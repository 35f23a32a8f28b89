/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { accountOfHost, registerCustomerPage } from '../../customer-pages/frame';
import { resolveLink, TOKEN_PATTERN } from '../../customer-pages/links';
import { IDV_MAX_IMAGE_BYTES, IDV_SIDES, documentTypeOf, type IdvSide } from '../../contract/apps/identity-verification';
import type { Caller } from '../platform/caller';
import { IMAGE_REFUSALS } from './images';
import { chooseDocument, customerView, IDV_LINK_PURPOSE, submitSession, uploadImage } from './service';

// The customer's page behind the SMS link: choose the document, photograph it (front, and back
// where it has one) and take a selfie, then send. Plain forms posting to this server, so it works
// with no script at all; the page's small script only shows the chosen file and a "Sending…"
// state. Every step is checked again on the server (api/apps/identity-verification/service.ts).

const ERRORS: Record<string, string> = {
  ...IMAGE_REFUSALS,
  PHOTOS_MISSING: 'Add every photo listed first, then send them.',
  DOCUMENT_TYPE: 'Choose one of the documents listed.',
  SIDE_NOT_NEEDED: 'Choose your document first.',
  SESSION_CLOSED: 'This verification no longer takes photos.',
  UPLOAD_FAILED: 'The photo could not be received. Try again.',
};

const customer = (c: Context): Caller => ({
  kind: 'api',
  actor: { id: null, firstName: 'Customer', lastName: '' },
  label: 'Customer',
  ip: c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress || null,
  userAgent: c.req.header('user-agent') ?? null,
});

const kb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

const CAPTURE: Record<IdvSide, 'environment' | 'user'> = { front: 'environment', back: 'environment', selfie: 'user' };
const HINTS: Record<IdvSide, string> = {
  front: 'Lay the document flat in good light, fill the frame, no glare.',
  back: 'Turn the document over. The lines of letters and < at the bottom must be sharp.',
  selfie: 'Face the camera, no hat or sunglasses, in good light.',
};

registerCustomerPage(IDV_LINK_PURPOSE, async (c, link) => {
  const deps = (c as Context<{ Variables: { deps: Deps } }>).get('deps');
  const view = await customerView(deps, link.accountId, link.taskId!);
  const url = new URL(c.req.url);
  const errorCode = url.searchParams.get('error');
  const errorSide = url.searchParams.get('side');
  const error = errorCode ? (ERRORS[errorCode] ?? ERRORS.UPLOAD_FAILED) : null;
  const base = `/c/${link.token}`;
  const alert = (where: string | null) => (error && errorSide === where ? <p role="alert" id={`error-${where ?? 'page'}`} class="idv-error">{error}</p> : null);

  if (view.status === 'submitted' || view.status === 'needs_review') {
    return { title: 'Thank you: your photos were sent', body: <p>We will check them shortly. You can close this page.</p> };
  }
  if (view.status === 'approved' || view.status === 'declined') return { title: 'This verification is finished', body: <p>You can close this page.</p> };
  if (view.status === 'expired') return { title: 'This link has expired', body: <p>Ask the person you are speaking with to send you a new one.</p> };
  if (view.status === 'cancelled') return { title: 'This verification was cancelled', body: <p>Ask the person you are speaking with if you still need to verify your identity.</p> };

  const chooser = (
    <form method="post" action={`${base}/idv/document`}>
      <fieldset>
        <legend>Which document will you show?</legend>
        {view.documentTypes.map((key) => (
          <p>
            <label>
              <input type="radio" name="documentType" value={key} checked={view.documentType === key} required /> {documentTypeOf(key)?.label ?? key}
            </label>
          </p>
        ))}
      </fieldset>
      {alert('document')}
      <button type="submit">{view.documentType ? 'Change document' : 'Continue'}</button>
    </form>
  );

  if (!view.documentType) {
    return {
      title: 'Verify your identity',
      body: (
        <div>
          {view.resubmission ? <p>We need new photos: the earlier ones could not be used.</p> : null}
          <p>You will take a photo of an identity document and a selfie. It takes about two minutes. Your photos are used only to verify your identity.</p>
          {alert(null)}
          {chooser}
        </div>
      ),
    };
  }

  const ready = view.sides.every((s) => s.received);
  return {
    title: 'Verify your identity',
    script: 'identity-verification',
    body: (
      <div>
        {view.resubmission ? <p>We need new photos: the earlier ones could not be used.</p> : null}
        {alert(null)}
        <ol aria-label="Photos to send">
          {view.sides.map((s) => (
            <li>
              {s.label}: {s.received ? <strong>received ✓</strong> : 'not yet'}
            </li>
          ))}
        </ol>
        {view.sides.map((s, i) => (
          <section aria-labelledby={`h-${s.side}`} id={s.side}>
            <h2 id={`h-${s.side}`}>
              {i + 1}. {s.label}
            </h2>
            <p id={`hint-${s.side}`}>{HINTS[s.side]}</p>
            <form method="post" action={`${base}/idv/photo/${s.side}`} enctype="multipart/form-data" data-idv-photo>
              <p>
                <label for={`take-${s.side}`}>{s.side === 'selfie' ? 'Take a selfie' : 'Take a photo'}</label>
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
                <label for={`upload-${s.side}`}>Or choose a saved photo (JPEG or PNG, up to {IDV_MAX_IMAGE_BYTES / 1024 / 1024} MB)</label>
                <br />
                <input id={`upload-${s.side}`} type="file" name="upload" accept="image/jpeg,image/png" />
              </p>
              <p role="status" data-idv-chosen />
              {alert(s.side)}
              <button type="submit">{s.received ? `Replace the ${s.label.toLowerCase()} (${kb(s.received.size)} received)` : `Send the ${s.label.toLowerCase()}`}</button>
            </form>
          </section>
        ))}
        <section aria-labelledby="h-send">
          <h2 id="h-send">{view.sides.length + 1}. Send for review</h2>
          <form method="post" action={`${base}/idv/submit`}>
            {alert('submit')}
            {ready ? (
              <>
                <p>All photos are in. Send them when you are ready.</p>
                <button type="submit">Send my photos</button>
              </>
            ) : (
              <p>Add every photo above first; then the button to send them appears here.</p>
            )}
          </form>
        </section>
        <details>
          <summary>Showing another document?</summary>
          {chooser}
        </details>
      </div>
    ),
  };
});

/** The form posts of the customer page; each answers with a redirect back to the page. */
export function idvCustomerRoutes(deps: Deps) {
  const app = new Hono();
  const back = (c: Context, token: string, error?: string, side?: string) =>
    c.redirect(`/c/${token}${error ? `?error=${encodeURIComponent(error)}${side ? `&side=${side}` : ''}` : ''}${side ? `#${side}` : ''}`, 303);

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
    if (!session) return c.redirect(TOKEN_PATTERN.test(token) ? `/c/${token}` : '/c/unknown', 303);
    try {
      await run(session);
    } catch (err) {
      if (err instanceof ApiError) return back(c, token, err.code, side);
      deps.log('identity verification customer step failed', err);
      return back(c, token, 'UPLOAD_FAILED', side);
    }
    return back(c, token, undefined, side);
  }

  async function form(c: Context): Promise<Record<string, unknown>> {
    try {
      return (await c.req.parseBody()) as Record<string, unknown>;
    } catch {
      throw new ApiError(400, 'UPLOAD_FAILED', ERRORS.UPLOAD_FAILED!);
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
      onError: (c) => back(c, c.req.param('token') ?? '', 'IMAGE_TOO_LARGE', (IDV_SIDES as readonly string[]).includes(c.req.param('side') ?? '') ? c.req.param('side') : undefined),
    }),
    (c) => {
      const side = c.req.param('side') as IdvSide;
      if (!(IDV_SIDES as readonly string[]).includes(side)) return step(c, undefined, () => Promise.reject(new ApiError(400, 'SIDE_NOT_NEEDED', ERRORS.SIDE_NOT_NEEDED!)));
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
