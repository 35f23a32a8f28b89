import type http from 'node:http';

// What the loopback Stripe (./peer.ts) and the resources it plays (./routes/, ./connect.ts)
// share: Stripe's objects and errors as they travel, the route handlers' request, and Stripe's
// form encoding.

export type StripeObject = Record<string, unknown> & { id: string; object: string };
export type SentEvent = { event: StripeObject; payload: string; signature: string; status: number };

export type Handler = (req: PeerRequest) => unknown | Promise<unknown>;
export type PeerRequest = {
  method: string;
  path: string;
  params: Record<string, string>;
  body: Record<string, unknown>;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
};

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type = 'invalid_request_error',
    /** the whole answer, for endpoints that do not answer Stripe's usual error shape (OAuth) */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A route handler answering NEXT leaves the request to the routes after it. */
export const NEXT = Symbol('next route');

/** A browser page of the peer (Stripe's hosted pages): status, headers and HTML. */
export type PageAnswer = { status: number; headers?: Record<string, string>; body?: string };
export type PageHandler = (req: {
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}) => PageAnswer | Promise<PageAnswer>;

/** Stripe's form encoding (`a[b][0][c]=1`) to nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (last) node[part] = value;
      else {
        const nextIsIndex = /^\d+$/.test(parts[i + 1]);
        node[part] ??= nextIsIndex ? [] : {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}
