/** @jsxImportSource hono/jsx */
import { customerTime } from './dates';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Child } from 'hono/jsx';
import type { Deps } from '../deps';
import { resolveLink, type ResolvedLink } from './links';
import { htmlAnswer } from '../http/compression';
import { renderHtml } from '../http/render-html';
import { DEFAULT_LOCALE, isLocale, isRtl, LOCALE_NAMES, LOCALES, negotiateLocale, type Locale } from '../contract/locales';
import { translator, type Translate } from './i18n/index';
import { hostName } from '../http/host';
import { escapeHtml } from '../http/escape-html';
import { requestHeader } from '../http/request-header';
import type { Trace } from '../observability/tracing';

// Customer pages: small server-rendered pages behind /c/<token>, in the account's branding,
// readable at 320 px, no console code. A page that needs a script names one of
// src/customer-pages (built by build.mjs into a hashed, long-cached file); the frame adds it with
// the response's CSP nonce, so nothing else can run. Scripts only enhance: without a build (API
// tests) a page is served without its script.

export type Branding = { name: string; logo: string; color: string };
/** `script`: the name of a file in src/customer-pages, without `.ts` */
/** `css`: the page's own rules, added to the frame's (nonce'd) style element */
export type PageAnswer = { title: string; body: Child; script?: string; status?: number; css?: string };
/** The link a page serves, with the language it is shown in and that language's messages. */
export type PageLink = ResolvedLink & { token: string; pageLocale: Locale; t: Translate };
export type CustomerPageHandler = (
  c: Context,
  link: PageLink,
  branding: Branding,
  deps: Deps,
) => Promise<PageAnswer> | PageAnswer;

const handlers = new Map<string, CustomerPageHandler>();

/** An app registers the page for each link purpose it sends (e.g. 'passkey.enroll'). */
export function registerCustomerPage(purpose: string, handler: CustomerPageHandler): void {
  handlers.set(purpose, handler);
}

const actions = new Map<string, { handler: CustomerPageHandler; maxBodyBytes: number }>();

/** The page and the post-back of a link purpose: a journey's page shows its current step's own (api/journeys). */
export function customerPageOf(purpose: string): { page?: CustomerPageHandler; action?: CustomerPageHandler } {
  return { page: handlers.get(purpose), action: actions.get(purpose)?.handler };
}

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
  link: PageLink,
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
        return { status: 400, title: link.t('state.unreadable.title'), body: <p>{link.t('state.unreadable.text')}</p> };
      }
      return handler(c, link, branding, form);
    },
    1024 * 1024,
  );
}

const DEFAULT_BRANDING: Branding = { name: 'Switchboard', logo: '', color: '#1F2937' };

function pageBranding(row: { name: string; logo: string; color: string } | null | undefined): Branding {
  return row
    ? { name: row.name, logo: row.logo, color: /^#[0-9A-Fa-f]{6}$/.test(row.color) ? row.color : DEFAULT_BRANDING.color }
    : DEFAULT_BRANDING;
}

async function brandingOf(deps: Deps, accountId: string): Promise<Branding> {
  return pageBranding(
    await deps.db.tenant(accountId, (trx) =>
      trx.selectFrom('branding').select(['name', 'logo', 'color']).where('account_id', '=', accountId).executeTakeFirst(),
    ),
  );
}

/** The console's own address as a Host header carries it, and its host name, by public URL. */
const consoleHosts = new Map<string, { host: string; name: string | null }>();
function consoleHost(publicUrl: string) {
  let own = consoleHosts.get(publicUrl);
  if (!own) {
    const host = new URL(publicUrl).host;
    own = { host, name: hostName(host) };
    consoleHosts.set(publicUrl, own);
  }
  return own;
}

/** The account whose verified custom domain this Host is; null on the console's own host. */
export async function accountOfHost(deps: Deps, host: string | undefined): Promise<string | null> {
  const own = consoleHost(deps.config.publicUrl);
  if (host === own.host) return null;
  const name = hostName(host);
  if (!name || name === own.name) return null;
  const row = await deps.db.system((trx) =>
    trx
      .selectFrom('branding')
      .select('account_id')
      .where('domain', '=', name)
      .where('domain_is_verified', '=', true)
      .executeTakeFirst(),
  );
  return row?.account_id ?? null;
}

/**
 * The language a page is shown in: the caller's own pick on the page (?lang=), else the language
 * the link was sent in, else the browser's Accept-Language, else English.
 */
export function pageLocaleOf(c: Context, link: Pick<ResolvedLink, 'locale'> | null): Locale {
  const picked = c.req.query('lang');
  if (isLocale(picked)) return picked;
  return link?.locale ?? negotiateLocale(requestHeader(c, 'accept-language')) ?? DEFAULT_LOCALE;
}

// The frame around a page (head, header, footer) is made as a string: it is the same few lines on
// every page, and hono/jsx's head elements (meta, title, style, script) each render through a
// context of their own (document-metadata hoisting no page of ours needs), which cost more than
// the rest of the page. The page's body is JSX (api/http/render-html.ts).

/** Links to this page in each other language (the caller's switch; a plain link, no script): the same for every page in a language. */
const languageSwitches = new Map<Locale, string>();
function languageSwitch(locale: Locale, t: Translate): string {
  let made = languageSwitches.get(locale);
  if (made === undefined) {
    const items = LOCALES.map((l) =>
      l === locale
        ? `<li><span aria-current="true" lang="${l}">${escapeHtml(LOCALE_NAMES[l])}</span></li>`
        : `<li><a href="?lang=${l}" lang="${l}" hreflang="${l}">${escapeHtml(LOCALE_NAMES[l])}</a></li>`,
    );
    made = `<nav aria-label="${escapeHtml(t('frame.language'))}" class="cp-langs"><ul>${items.join('')}</ul></nav>`;
    languageSwitches.set(locale, made);
  }
  return made;
}

const EARLY_CLICK =
  "document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('[data-early-click]');if(b&&!b.dataset.ready){b.dataset.clicked='1';e.preventDefault()}},true)";

type Frame = {
  title: string;
  branding: Branding;
  nonce: string;
  script?: string;
  css?: string;
  locale: Locale;
  t: Translate;
  body: string;
};

function frameHtml(props: Frame): string {
  const { branding, nonce, t } = props;
  const color = branding.color; // a checked #RRGGBB (pageBranding)
  const logo = branding.logo ? `data:image/svg+xml;base64,${Buffer.from(branding.logo).toString('base64')}` : null;
  const css = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,sans-serif;color:#111827;background:#F9FAFB}
header{background:${color};color:#fff;padding:12px 16px;display:flex;align-items:center;gap:12px}
header img{height:32px;width:auto;max-width:40%;background:#fff;border-radius:4px;padding:2px}
main{max-width:32rem;margin:0 auto;padding:16px}h1{font-size:1.25rem;margin:.5rem 0 1rem}
a,button{color:${color}}button{font:inherit;min-height:44px;padding:0 16px;border-radius:6px;border:0;background:${color};color:#fff;width:100%}
footer{font-size:.8rem;color:#4B5563;text-align:center;padding:24px 16px}
.cp-langs ul{list-style:none;margin:0 0 12px;padding:0;display:flex;flex-wrap:wrap;justify-content:center;gap:4px 8px}
.cp-langs a,.cp-langs span{display:inline-block;min-height:24px;min-width:24px;padding:2px 4px}.cp-langs span{font-weight:700}
@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important;scroll-behavior:auto!important}}${props.css ?? ''}`;
  // no favicon request: img-src allows 'self' (page images), and /favicon.ico is not ours to answer.
  // The main control works from first paint: a press before the page's script has run is kept
  // (data-clicked) and the script acts on it as soon as it runs (EARLY_CLICK).
  const scripts = props.script
    ? `<script nonce="${nonce}">${EARLY_CLICK}</script><script nonce="${nonce}" src="${escapeHtml(props.script)}" defer></script>`
    : '';
  const name = escapeHtml(branding.name);
  return (
    `<!doctype html><html lang="${props.locale}" dir="${isRtl(props.locale) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"/>` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"/><meta name="robots" content="noindex"/><link rel="icon" href="data:,"/>` +
    `<title>${escapeHtml(`${props.title} · ${branding.name}`)}</title><style nonce="${nonce}">${css}</style>${scripts}</head>` +
    `<body><header>${logo ? `<img src="${logo}" alt="${escapeHtml(t('frame.logo', { company: branding.name }))}"/>` : ''}<strong>${name}</strong></header>` +
    `<main><h1>${escapeHtml(props.title)}</h1>${props.body}</main>` +
    `<footer>${languageSwitch(props.locale, t)}${escapeHtml(t('frame.securedBy'))}</footer></body></html>`
  );
}

const STATE_PAGES = {
  unknown: { status: 404, title: 'state.unknown.title', text: 'state.unknown.text' },
  expired: { status: 410, title: 'state.expired.title', text: 'state.expired.text' },
  used: { status: 410, title: 'state.used.title', text: 'state.used.text' },
  revoked: { status: 410, title: 'state.revoked.title', text: 'state.revoked.text' },
} as const;

/** Each built customer-page script's address, from dist/customer-pages.json; empty unbuilt. */
function builtScripts(distDir: string | undefined): Map<string, string> {
  const file = distDir ? path.join(distDir, 'customer-pages.json') : null;
  if (!file || !fs.existsSync(file)) return new Map();
  return new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>));
}

// A nonce per answer, cut from a pool of random bytes drawn 4 KB at a time (one call to the
// system's generator per 256 pages instead of one per page); each is used once.
let noncePool = Buffer.alloc(0);
let nonceAt = 0;
function freshNonce(): string {
  if (nonceAt + 16 > noncePool.length) {
    noncePool = crypto.randomBytes(4096);
    nonceAt = 0;
  }
  nonceAt += 16;
  return noncePool.toString('base64', nonceAt - 16, nonceAt);
}

function render(c: Context, status: number, page: PageAnswer, branding: Branding, scripts: Map<string, string>, locale: Locale) {
  const nonce = freshNonce();
  // a page's script may call back only to this origin (e.g. a WebAuthn ceremony's options)
  const connect = page.script ? " connect-src 'self';" : '';
  const headers = {
    'content-security-policy': `default-src 'none'; img-src data: 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';${connect} form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
  const script = page.script ? scripts.get(page.script) : undefined;
  return htmlAnswer(
    c,
    frameHtml({
      title: page.title,
      branding,
      nonce,
      css: page.css,
      script,
      locale,
      t: translator(locale),
      body: renderHtml(<>{page.body}</>),
    }),
    status,
    headers,
  );
}

export function customerPageRoutes(deps: Deps, distDir?: string) {
  const app = new Hono();
  const scripts = builtScripts(distDir);
  const serve = async (c: Context, pick: (purpose: string) => CustomerPageHandler | undefined) => {
    const token = c.req.param('token') ?? '';
    // pages reach the services through the request, as the API's routes do; a GET's as the API's read requests' do (api/db/index.ts, forReads)
    // transactions run as the API's read requests' do (api/db/index.ts, forReads); a traced
    // request's carry its trace (api/observability/tracing.ts)
    const trace = c.get('trace' as never) as Trace | undefined;
    const db = trace ? deps.db.traced(trace) : deps.db;
    const pageDeps: Deps = { ...deps, db: c.req.method === 'GET' ? db.forReads() : db };
    c.set('deps' as never, pageDeps as never);
    const hostAccount = await accountOfHost(pageDeps, requestHeader(c, 'host'));
    const link = await resolveLink(pageDeps.db, token, deps.now());
    // a link of another account on this custom domain is as good as unknown
    const usable = link && (!hostAccount || hostAccount === link.accountId) ? link : null;
    // the link brings its account's branding; an unknown link on a custom domain shows that domain's
    const branding = usable
      ? pageBranding(usable.branding)
      : hostAccount
        ? await brandingOf(pageDeps, hostAccount)
        : DEFAULT_BRANDING;
    const stateKey = !usable ? 'unknown' : usable.state === 'ok' ? null : usable.state;
    const handler = usable ? pick(usable.purpose) : undefined;
    const locale = pageLocaleOf(c, usable);
    const t = translator(locale);
    if (stateKey || !handler) {
      const s = STATE_PAGES[stateKey ?? 'unknown'];
      return render(c, s.status, { title: t(s.title), body: <p>{t(s.text)}</p> }, branding, scripts, locale);
    }
    try {
      const page = await handler(c, { ...usable!, token, pageLocale: locale, t }, branding, pageDeps);
      return render(c, page.status ?? 200, page, branding, scripts, locale);
    } catch (err) {
      deps.log(`customer page ${usable!.purpose} failed`, err);
      return render(c, 500, { title: t('state.error.title'), body: <p>{t('state.error.text')}</p> }, branding, scripts, locale);
    }
  };
  app.get('/c/:token', (c) => serve(c, (purpose) => handlers.get(purpose)));
  const largest = Math.max(1024 * 1024, ...[...actions.values()].map((a) => a.maxBodyBytes));
  app.post(
    '/c/:token',
    bodyLimit({
      maxSize: largest,
      onError: (c) => {
        const locale = pageLocaleOf(c, null);
        const text = translator(locale)('state.tooLarge');
        return c.html(
          `<!doctype html><html lang="${locale}" dir="${isRtl(locale) ? 'rtl' : 'ltr'}"><title>${text}</title><p>${text}</p></html>`,
          413,
        );
      },
    }),
    (c) => serve(c, (purpose) => actions.get(purpose)?.handler),
  );
  return app;
}

/** "How your customers see your links": the preview admins open from SMS content. */
registerCustomerPage('preview', (_c, link, branding) => {
  const time = customerTime(link.expiresAt, link.pageLocale, link.timeZone);
  return {
    title: link.t('preview.title'),
    body: (
      <div>
        <p>{link.t('preview.text', { company: branding.name })}</p>
        <p>{link.t('preview.until', { time })}</p>
        <button type="button" data-preview-continue data-note={link.t('preview.note')}>
          {link.t('preview.continue')}
        </button>
        <p data-preview-note role="status" />
      </div>
    ),
    script: 'preview',
  };
});
