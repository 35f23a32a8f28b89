/** @jsxImportSource hono/jsx */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Deps } from '../deps';
import { resolveLink, type ResolvedLink } from './links';
import { hostName } from '../http/host';

// Customer pages: small server-rendered pages behind /c/<token>, in the account's branding,
// readable at 320 px, no console code. A page that needs a script names one of
// src/customer-pages (built by build.mjs into a hashed, long-cached file); the frame adds it with
// the response's CSP nonce, so nothing else can run. Scripts only enhance: without a build (API
// tests) a page is served without its script.

export type Branding = { name: string; logo: string; color: string };
/** `script`: the name of a file in src/customer-pages, without `.ts` */
/** `css`: the page's own rules, added to the frame's (nonce'd) style element */
export type PageAnswer = { title: string; body: Child; script?: string; status?: number; css?: string };
export type CustomerPageHandler = (c: Context, link: ResolvedLink & { token: string }, branding: Branding, deps: Deps) => Promise<PageAnswer> | PageAnswer;

const handlers = new Map<string, CustomerPageHandler>();

/** An app registers the page for each link purpose it sends (e.g. 'passkey.enroll'). */
export function registerCustomerPage(purpose: string, handler: CustomerPageHandler): void {
  handlers.set(purpose, handler);
}

const actions = new Map<string, { handler: CustomerPageHandler; maxBodyBytes: number }>();

/**
 * A page that posts back (a plain HTML form, so it works before and without its script): the
 * POST to the same /c/<token> goes here, with its own body limit (the API's 1 MB does not apply).
 */
export function registerCustomerPageAction(purpose: string, handler: CustomerPageHandler, maxBodyBytes: number): void {
  actions.set(purpose, { handler, maxBodyBytes });
}

/** A form the page posts back to its own address (urlencoded fields); answers the next page. */
export type CustomerFormHandler = (
  c: Context,
  link: ResolvedLink & { token: string },
  branding: Branding,
  form: Record<string, string>,
) => Promise<PageAnswer>;

/** A page action whose body is a plain urlencoded form (e.g. sign a document): at most 1 MB. */
export function registerCustomerForm(purpose: string, handler: CustomerFormHandler): void {
  registerCustomerPageAction(
    purpose,
    async (c, link, branding) => {
      let form: Record<string, string>;
      try {
        const body = await c.req.parseBody();
        form = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
      } catch {
        return { status: 400, title: 'This form could not be read', body: <p>Go back and send it again.</p> };
      }
      return handler(c, link, branding, form);
    },
    1024 * 1024,
  );
}

const DEFAULT_BRANDING: Branding = { name: 'Switchboard', logo: '', color: '#1F2937' };

async function brandingOf(deps: Deps, accountId: string): Promise<Branding> {
  const row = await deps.db.tenant(accountId, (trx) => trx.selectFrom('branding').select(['name', 'logo', 'color']).where('account_id', '=', accountId).executeTakeFirst());
  return row ? { name: row.name, logo: row.logo, color: /^#[0-9A-Fa-f]{6}$/.test(row.color) ? row.color : DEFAULT_BRANDING.color } : DEFAULT_BRANDING;
}

/** The account whose verified custom domain this Host is; null on the console's own host. */
export async function accountOfHost(deps: Deps, host: string | undefined): Promise<string | null> {
  const name = hostName(host);
  if (!name || name === hostName(new URL(deps.config.publicUrl).host)) return null;
  const row = await deps.db.system((trx) => trx.selectFrom('branding').select('account_id').where('domain', '=', name).where('domain_is_verified', '=', true).executeTakeFirst());
  return row?.account_id ?? null;
}

function Layout(props: { title: string; branding: Branding; nonce: string; script?: string; css?: string; children: Child }) {
  const logo = props.branding.logo ? `data:image/svg+xml;base64,${Buffer.from(props.branding.logo).toString('base64')}` : null;
  const css = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,sans-serif;color:#111827;background:#F9FAFB}
header{background:${props.branding.color};color:#fff;padding:12px 16px;display:flex;align-items:center;gap:12px}
header img{height:32px;width:auto;max-width:40%;background:#fff;border-radius:4px;padding:2px}
main{max-width:32rem;margin:0 auto;padding:16px}h1{font-size:1.25rem;margin:.5rem 0 1rem}
a,button{color:${props.branding.color}}button{font:inherit;min-height:44px;padding:0 16px;border-radius:6px;border:0;background:${props.branding.color};color:#fff;width:100%}
footer{font-size:.8rem;color:#4B5563;text-align:center;padding:24px 16px}${props.css ?? ''}`;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex" />
        {/* no favicon request: img-src allows 'self' (page images), and /favicon.ico is not ours to answer */}
        <link rel="icon" href="data:," />
        <title>{`${props.title} · ${props.branding.name}`}</title>
        <style nonce={props.nonce}>{raw(css)}</style>
      </head>
      <body>
        <header>
          {logo ? <img src={logo} alt={`${props.branding.name} logo`} /> : null}
          <strong>{props.branding.name}</strong>
        </header>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <footer>Secured by Switchboard</footer>
        {props.script ? <script nonce={props.nonce} src={props.script} defer /> : null}
      </body>
    </html>
  );
}

const STATE_PAGES = {
  unknown: { status: 404, title: 'This link does not work', text: 'Check that you opened the whole link from your message. If it still does not work, ask the person you are speaking with to send a new one.' },
  expired: { status: 410, title: 'This link has expired', text: 'Links work for a limited time. Ask the person you are speaking with to send you a new one.' },
  used: { status: 410, title: 'This link has already been used', text: 'Each link works once. If you still need to do something, ask for a new link.' },
  revoked: { status: 410, title: 'This link was canceled', text: 'Ask the person you are speaking with to send you a new one.' },
} as const;

/** Each built customer-page script's address, from dist/customer-pages.json; empty unbuilt. */
function builtScripts(distDir: string | undefined): Map<string, string> {
  const file = distDir ? path.join(distDir, 'customer-pages.json') : null;
  if (!file || !fs.existsSync(file)) return new Map();
  return new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>));
}

function render(c: Context, status: number, page: PageAnswer, branding: Branding, scripts: Map<string, string>) {
  const nonce = crypto.randomBytes(16).toString('base64');
  // a page's script may call back only to this origin (e.g. a WebAuthn ceremony's options)
  const connect = page.script ? " connect-src 'self';" : '';
  c.header('content-security-policy', `default-src 'none'; img-src data: 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';${connect} form-action 'self'; base-uri 'none'; frame-ancestors 'none'`);
  c.header('referrer-policy', 'no-referrer');
  c.header('x-content-type-options', 'nosniff');
  c.header('cache-control', 'no-store');
  return c.html(
    '<!doctype html>' +
      String(
        <Layout title={page.title} branding={branding} nonce={nonce} css={page.css} script={page.script ? scripts.get(page.script) : undefined}>
          {page.body}
        </Layout>,
      ),
    status as 200,
  );
}

export function customerPageRoutes(deps: Deps, distDir?: string) {
  const app = new Hono();
  const scripts = builtScripts(distDir);
  const serve = async (c: Context, pick: (purpose: string) => CustomerPageHandler | undefined) => {
    const token = c.req.param('token') ?? '';
    // pages reach the services through the request, as the API's routes do
    c.set('deps' as never, deps as never);
    const hostAccount = await accountOfHost(deps, c.req.header('host'));
    const link = await resolveLink(deps.db, token, deps.now());
    // a link of another account on this custom domain is as good as unknown
    const usable = link && (!hostAccount || hostAccount === link.accountId) ? link : null;
    const branding = usable ? await brandingOf(deps, usable.accountId) : hostAccount ? await brandingOf(deps, hostAccount) : DEFAULT_BRANDING;
    const stateKey = !usable ? 'unknown' : usable.state === 'ok' ? null : usable.state;
    const handler = usable ? pick(usable.purpose) : undefined;
    if (stateKey || !handler) {
      const s = STATE_PAGES[stateKey ?? 'unknown'];
      return render(c, s.status, { title: s.title, body: <p>{s.text}</p> }, branding, scripts);
    }
    try {
      const page = await handler(c, { ...usable!, token }, branding, deps);
      return render(c, page.status ?? 200, page, branding, scripts);
    } catch (err) {
      deps.log(`customer page ${usable!.purpose} failed`, err);
      return render(c, 500, { title: 'Something went wrong', body: <p>Please try again in a moment.</p> }, branding, scripts);
    }
  };
  app.get('/c/:token', (c) => serve(c, (purpose) => handlers.get(purpose)));
  const largest = Math.max(1024 * 1024, ...[...actions.values()].map((a) => a.maxBodyBytes));
  app.post(
    '/c/:token',
    bodyLimit({ maxSize: largest, onError: (c) => c.html('<!doctype html><title>Too large</title><p>The files you chose are too large. Go back and choose smaller files.</p>', 413) }),
    (c) => serve(c, (purpose) => actions.get(purpose)?.handler),
  );
  return app;
}

/** "How your customers see your links": the preview admins open from SMS content. */
registerCustomerPage('preview', (_c, link, branding) => ({
  title: 'This is how your customers see your links',
  body: (
    <div>
      <p>
        Links that {branding.name} sends by SMS open pages like this one: your name, logo and colour, on your own domain when it is verified, readable on any
        phone.
      </p>
      <p>
        This preview link works until {link.expiresAt.toISOString().slice(11, 16)} UTC and opens nothing else.
      </p>
      <button type="button" data-preview-continue>
        Continue
      </button>
      <p data-preview-note role="status" hidden />
    </div>
  ),
  script: 'preview',
}));
