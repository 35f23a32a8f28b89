import type { Handler, PageAnswer, SentEvent, StripeObject } from '../protocol';

// What the loopback Stripe (../peer.ts) hands each of its resources (one module here per
// resource): its store of objects, its routes and hosted pages, its clock and ids, and its events.

/** A hosted page a browser sees (Checkout, the portal, an invoice): the match of its path. */
export type HostedPage = (
  match: RegExpMatchArray,
  req: { method: string; form: () => Record<string, unknown> },
) => PageAnswer | Promise<PageAnswer>;

/** A Checkout session's line items and subscription data: not fields of the session on Stripe. */
export type SessionItems = Map<string, StripeObject[]>;
export type SubscriptionData = Map<string, { metadata?: Record<string, string> }>;

export type PeerCore = {
  /** every object by id */
  objects: Map<string, StripeObject>;
  sessionItems: SessionItems;
  subscriptionData: SubscriptionData;
  meterIdentifiers: Set<string>;
  meterEvents: StripeObject[];
  route(method: string, pattern: string, handler: Handler): void;
  /** a hosted page; the ones added first are tried first, any method */
  hosted(path: RegExp, page: HostedPage): void;
  /** stores an object, with the whole shape Stripe answers */
  put<T extends StripeObject>(object: T): T;
  /** the object of that id and kind, or Stripe's 404 */
  get(id: string, kind: string): StripeObject;
  list(data: StripeObject[], path: string): unknown;
  /** Stripe's list pagination: `limit` (default 10, at most 100), newest first, `starting_after` */
  paged(all: StripeObject[], path: string, query: URLSearchParams): unknown;
  id(prefix: string): string;
  /** the peer's clock, in seconds */
  now(): number;
  emit(type: string, object: StripeObject): Promise<SentEvent>;
  /** the peer's address (known once it listens) */
  url(): string;
};

export const MONTH_S = 30 * 86_400;

export const HTML = { 'content-type': 'text/html; charset=utf-8' };
