import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { APP_IDS, type AppId } from '../../api/contract/apps';
import type { AppBilling } from '../../api/contract/billing';
import type { BillingStatus, Role } from '../../api/contract/common';
import type { Bootstrap, TokenPayload } from '../../api/contract/session';
import { browserHost } from '../../hosts/browser/host';
import type { Host } from '../../hosts/host';
import { Console } from '../../src/app/Console';

export const TOKEN_KEY = 'switchboard.token';

const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned token with the payload the UI reads (the UI never verifies). */
export function makeToken(payload: Partial<TokenPayload> = {}): string {
  const full: TokenPayload = {
    sub: 'adm_1',
    acc: 'acc_1',
    role: 'owner',
    root: false,
    ghost: false,
    email: 'owner@acme.test',
    exp: 4102444800,
    ...payload,
  };
  return `${b64url('{"alg":"HS256"}')}.${b64url(JSON.stringify(full))}.sig`;
}

type BootstrapOptions = {
  role?: Role;
  isRoot?: boolean;
  apps?: AppId[];
  status?: Partial<Record<AppId, BillingStatus>>;
  email?: string;
};

export function makeBootstrap({
  role = 'owner',
  isRoot = false,
  apps,
  status = {},
  email = 'owner@acme.test',
}: BootstrapOptions = {}): Bootstrap {
  const visible = apps ?? APP_IDS.filter((id) => id !== 'identity-verification');
  const billing = Object.fromEntries(
    APP_IDS.map((id): [AppId, AppBilling] => [id, { status: status[id] ?? 'free-trial', trialEndsAt: null }]),
  ) as Bootstrap['billing'];
  return {
    id: 'adm_1',
    account: { id: 'acc_1', name: 'Acme Support' },
    firstName: 'Olivia',
    lastName: 'Owner',
    email,
    role,
    isRoot,
    ghost: false,
    apps: visible,
    billing,
    branding: { name: 'Acme Support', logo: '', color: '#2563EB', domain: null, domainIsVerified: false },
  };
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (request: Request) => Answer | Promise<Answer>;

/** A live stream (GET /api/live) the test writes events into; each request opens a new one. */
export function liveStream() {
  const open: ReadableStreamDefaultController<Uint8Array>[] = [];
  const encoder = new TextEncoder();
  return {
    requests: () => open.length,
    route: (): Answer => ({
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          open.push(controller);
          controller.enqueue(encoder.encode('event: ready\ndata: {}\n\n'));
        },
      }),
    }),
    send(data: unknown, id = '1') {
      for (const c of open) c.enqueue(encoder.encode(`id: ${id}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`));
    },
  };
}

/** Replaces fetch with answers keyed by 'METHOD /api/path'; anything else answers 404. */
export function mockApi(routes: Record<string, Handler | Answer>) {
  const calls: { method: string; path: string; headers: Headers; body: string; url: string }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(request.url).pathname;
    calls.push({ method: request.method, path, url: request.url, headers: request.headers, body: await request.clone().text() });
    const key = `${request.method} ${path}`;
    const route = routes[key];
    const answer: Answer =
      typeof route === 'function'
        ? await route(request)
        : (route ?? { status: 404, body: { code: 'NOT_FOUND', message: 'Not found' } });
    const status = answer.status ?? 200;
    if (answer.body instanceof ReadableStream)
      return new Response(answer.body, { status, headers: { 'content-type': 'text/event-stream', ...answer.headers } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** Opens the console at a path, signed in with `token` when given (as the stored token). */
export function renderConsole({ path = '/', token, host = browserHost }: { path?: string; token?: string; host?: Host } = {}) {
  window.history.replaceState(null, '', path);
  if (token) localStorage.setItem(TOKEN_KEY, token);
  return render(<Console host={host} />);
}

/** Signed in as someone with a bootstrap; the API answers bootstrap plus the extra routes. */
export function renderSignedIn(
  path: string,
  bootstrap: Bootstrap = makeBootstrap(),
  routes: Record<string, Handler | Answer> = {},
  payload: Partial<TokenPayload> = {},
) {
  const api = mockApi({
    'GET /api/admins/bootstrap': { body: bootstrap },
    'GET /api/passkeys/billing/usage': { body: { status: 'ok', credits: 10, freeTier: 100 } },
    ...routes,
  });
  const view = renderConsole({
    path,
    token: makeToken({ role: bootstrap.role, root: bootstrap.isRoot, email: bootstrap.email, ...payload }),
  });
  return { ...api, ...view };
}

export const here = () => window.location.pathname + window.location.search;
