import type { IncomingMessage, ServerResponse } from 'node:http';
import crypto from 'node:crypto';
import Provider, { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';
import { mountMatcher } from './dev-idp-mount';
import { escapeHtml } from '../http/escape-html';

// The development identity provider: a real OpenID Connect provider (oidc-provider) that stands
// in for the Google-type, Microsoft-type and SSO providers on a machine with no internet and no
// accounts elsewhere. It issues real, signed ID tokens through the same code flow production
// uses. Its sessions and codes live in memory: it is a development tool, never mounted in
// production (api/config.ts refuses DEV_IDP there).

export type DevIdpClient = { clientId: string; clientSecret: string; redirectUris: string[] };
export type DevIdpUser = { email: string; firstName: string; lastName: string };

export type DevIdpOptions = {
  /** e.g. http://localhost:3000/dev-idp; its path is where the provider is mounted */
  issuer: string;
  clients: DevIdpClient[];
  /** offered as one-click choices on the sign-in page */
  users: DevIdpUser[];
  /** ID token lifetime in seconds */
  idTokenTtl?: number;
  /** behind a TLS-terminating proxy: trust X-Forwarded-Proto/Host */
  proxy?: boolean;
};

export type DevIdp = {
  issuer: string;
  mountPath: string;
  /** whether this request is for the provider */
  matches(url: string | undefined): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
};

/** The account id carries the e-mail and the groups chosen on the page: "email|g1,g2". */
function encodeAccount(email: string, groups: string[]): string {
  return groups.length ? `${email}|${groups.join(',')}` : email;
}

function decodeAccount(id: string): { email: string; groups: string[] } {
  const [email = '', groups = ''] = id.split('|');
  return { email, groups: groups.split(',').filter(Boolean) };
}

function nameFromEmail(email: string): { firstName: string; lastName: string } {
  const local = email.split('@')[0] ?? '';
  const parts = local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1));
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0;display:flex;justify-content:center;padding:48px 16px}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002;padding:32px;max-width:420px;width:100%}
h1{font-size:20px;margin:0 0 4px}p{color:#4b5563;font-size:14px}
.users{display:grid;gap:8px;margin:16px 0}
button{font:inherit;cursor:pointer;border-radius:8px;border:1px solid #d1d5db;background:#fff;padding:10px 12px;text-align:left;width:100%}
button:hover,button:focus-visible{border-color:#2563eb;outline:2px solid #93c5fd}
button.primary{background:#2563eb;color:#fff;border-color:#2563eb;text-align:center}
label{display:block;font-size:14px;margin:12px 0 4px}input{font:inherit;width:100%;box-sizing:border-box;padding:8px;border:1px solid #d1d5db;border-radius:8px}
.hint{font-size:12px;color:#6b7280}.error{color:#b91c1c;font-size:14px}
small{color:#6b7280}
</style></head><body><main>${body}</main></body></html>`;
}

function loginPage(action: string, clientId: string, users: DevIdpUser[], hint: string, error = ''): string {
  const choices = users
    .map(
      (u) => `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="email" value="${escapeHtml(u.email)}">
<button type="submit" data-email="${escapeHtml(u.email)}"><strong>${escapeHtml(`${u.firstName} ${u.lastName}`)}</strong><br><small>${escapeHtml(u.email)}</small></button></form>`,
    )
    .join('');
  return page(
    'Development sign-in',
    `<h1>Development identity provider</h1>
<p>Signing in to <strong>${escapeHtml(clientId)}</strong>. This stand-in provider exists only in development; pick a demo user or type any e-mail address.</p>
<div class="users">${choices}</div>
<form method="post" action="${escapeHtml(action)}">
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<label for="email">E-mail address</label><input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(hint)}">
<label for="groups">Groups <span class="hint">(optional, comma-separated; sent as the groups claim)</span></label><input id="groups" name="groups" type="text">
<p><button class="primary" type="submit">Sign in</button></p>
</form>
<form method="post" action="${escapeHtml(action.replace(/\/login$/, '/abort'))}"><button type="submit">Cancel</button></form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 16_384) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

export async function createDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  const issuerUrl = new URL(options.issuer);
  const mountPath = issuerUrl.pathname.replace(/\/$/, '');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
  const users = new Map(options.users.map((u) => [u.email, u]));

  // Ask who you are on every authorization: a picker, not a remembered session.
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check(
        'dev_pick',
        'the development provider asks for the user every time',
        (ctx: KoaContextWithOIDC) =>
          ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const provider = new Provider(options.issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk as never] },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      // Okta and Azure AD add a groups claim to the ID token by configuration; here it rides on profile.
      profile: ['name', 'given_name', 'family_name', 'groups'],
    },
    // Put the scope's claims in the ID token itself, as Google, Azure AD and Okta do.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    ttl: {
      IdToken: options.idTokenTtl ?? 3600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AuthorizationCode: 60,
      AccessToken: 600,
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx, id) {
      const { email, groups } = decodeAccount(id);
      const known = users.get(email) ?? { email, ...nameFromEmail(email) };
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email,
            email_verified: true,
            given_name: known.firstName,
            family_name: known.lastName,
            name: `${known.firstName} ${known.lastName}`.trim(),
            ...(groups.length ? { groups } : {}),
          };
        },
      };
    },
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session!.accountId!;
      const clientId = ctx.oidc.client!.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing && existing.accountId === accountId) return existing;
      // First-party stand-in: consent is implied.
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      ctx.oidc.session!.grantIdFor(clientId, grant.jti);
      return grant;
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<h1>Sign-in error</h1><p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ''))}</p>`,
      );
    },
  });
  provider.proxy = !!options.proxy;
  const callback = provider.callback();
  const interactionRoute = new RegExp(`^${mountPath}/interaction/([A-Za-z0-9_-]+)(/login|/abort)?(\\?.*)?$`);

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> {
    // The provider finds its mount point from originalUrl versus url, as under express.
    const original = req.url!;
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
    req.url = original.slice(mountPath.length);
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    const loginAction = `${mountPath}/interaction/${uid}/login`;
    const clientId = String(details.params.client_id ?? '');
    if (req.method === 'GET' && !action) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(loginPage(loginAction, clientId, options.users, String(details.params.login_hint ?? '')));
      return;
    }
    if (req.method === 'POST' && action === '/abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (req.method === 'POST' && action === '/login') {
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const groups = (form.get('groups') ?? '')
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean);
      if (!EMAIL.test(email)) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage(loginAction, clientId, options.users, email, 'Please provide a valid email address'));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: encodeAccount(email, groups) } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.writeHead(405).end();
  }

  return {
    issuer: options.issuer,
    mountPath,
    matches: mountMatcher(mountPath),
    handle(req, res) {
      const m = req.url?.match(interactionRoute);
      if (m) {
        interaction(req, res, m[1]!, m[2]).catch((err: unknown) => {
          if (res.headersSent) return res.end();
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            page(
              'Sign-in error',
              `<h1>Sign-in error</h1><p>${escapeHtml(err instanceof Error ? err.message : 'This sign-in has expired.')} Start again from the console.</p>`,
            ),
          );
        });
        return;
      }
      const original = req.url!;
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
      req.url = original.slice(mountPath.length) || '/';
      void callback(req, res);
    },
  };
}
