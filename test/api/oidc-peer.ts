import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDevIdp, type DevIdp, type DevIdpClient } from '../../api/identity/dev-idp';
import { redirectUriFor } from '../../api/identity/flows';
import { DEMO_ACCOUNTS } from '../../api/seed';

// A real OpenID Connect provider on loopback (the development one) for the sign-in tests, and a
// minimal browser that walks its pages: cookies per host, redirects followed by hand.

export const PUBLIC_URL = 'http://localhost:3000';

export type TestIdp = {
  issuer: string;
  discoveryUrl: string;
  client(name: 'google' | 'azure' | 'sso' | 'other'): DevIdpClient;
  close(): Promise<void>;
};

export async function startTestIdp(idTokenTtl = 120): Promise<TestIdp> {
  let idp: DevIdp | undefined;
  const server = http.createServer((req, res) => (idp ? idp.handle(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dev-idp`;
  const clients: Record<string, DevIdpClient> = {
    google: {
      clientId: 'google-client',
      clientSecret: 'google-secret-google-secret',
      redirectUris: [redirectUriFor(PUBLIC_URL, 'google')],
    },
    azure: {
      clientId: 'azure-client',
      clientSecret: 'azure-secret-azure-secret',
      redirectUris: [redirectUriFor(PUBLIC_URL, 'azure')],
    },
    sso: { clientId: 'sso-client', clientSecret: 'sso-secret-sso-secret', redirectUris: [redirectUriFor(PUBLIC_URL, 'sso')] },
    // another application at the same provider, for tokens minted for someone else
    other: { clientId: 'other-app', clientSecret: 'other-secret-other-secret', redirectUris: ['http://other.test/cb'] },
  };
  idp = await createDevIdp({
    issuer,
    clients: Object.values(clients),
    users: DEMO_ACCOUNTS.flatMap((a) => a.admins.map(({ email, firstName, lastName }) => ({ email, firstName, lastName }))),
    idTokenTtl,
  });
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    client: (name) => clients[name]!,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Cookies by host, enough for the provider's session and interaction cookies. */
export class Browser {
  private jar = new Map<string, Map<string, string>>();

  private cookieHeader(url: URL): string {
    return [...(this.jar.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(url: URL, res: Response) {
    const jar = this.jar.get(url.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.jar.set(url.host, jar);
  }

  async request(method: string, href: string, form?: Record<string, string>): Promise<Response> {
    const url = new URL(href);
    const headers: Record<string, string> = { cookie: this.cookieHeader(url) };
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    this.remember(url, res);
    return res;
  }

  /**
   * Walks the provider from its authorize URL: the picker page, the chosen e-mail (and groups),
   * until the provider sends the browser back to `returnPrefix`. Answers that return URL.
   */
  async signInAtIdp(authorizeUrl: string, email: string, groups = '', returnPrefix = PUBLIC_URL): Promise<URL> {
    let href = authorizeUrl;
    let submitted = false;
    for (let hop = 0; hop < 10; hop++) {
      if (href.startsWith(returnPrefix)) return new URL(href);
      const res = await this.request('GET', href);
      if (res.status === 200 && !submitted) {
        const html = await res.text();
        const action = html.match(/<form method="post" action="([^"]+\/login)"/)?.[1];
        if (!action) throw new Error(`no login form at ${href}: ${html.slice(0, 300)}`);
        const post = await this.request('POST', new URL(action.replace(/&#47;/g, '/'), href).href, { email, groups });
        submitted = true;
        href = new URL(post.headers.get('location')!, href).href;
        continue;
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`provider stopped at ${href} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
      href = new URL(location, href).href;
    }
    throw new Error('too many redirects at the provider');
  }
}

/** The sb_oidc cookie our start route set, as a Cookie header for the return call. */
export function flowCookie(res: Response): string {
  const line = res.headers.getSetCookie().find((l) => l.startsWith('sb_oidc='));
  if (!line) throw new Error('no flow cookie');
  return line.split(';')[0]!;
}
