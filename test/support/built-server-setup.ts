import { expect } from 'vitest';
import type { startServer } from '../e2e/harness';
import { makePdf } from './pdfs';
import { NAME, SIGNATURE } from './signature-flow';
import { startStripePeer, type StripePeer } from './stripe-peer';
import { addStripeConnect, connectServerEnv, type ConnectPeer } from './stripe-connect-peer';

// What an end-to-end test sets up on the built server before its browser opens: calls to the API
// as an admin the server gave a sign-in link to, a published document to sign, and Stripe
// connected through the loopback Stripe's authorize step.

type Server = Awaited<ReturnType<typeof startServer>>;
export type ApiAnswer = { status: number; headers: Headers; body: Record<string, unknown> };

/** The session token of the sign-in link the server printed for `email`. */
export const linkToken = (server: Server, email: string) => new URL(server.links[email]!).searchParams.get('token')!;

/** Calls the server's API as `email` (one of the server's `linkFor`), the way the console does. */
export async function callAs(
  server: Server,
  email: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${linkToken(server, email)}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

/** Uploads a one-page PDF titled `name`, with a signature and a name field, and publishes it: its id. */
export async function publishSignatureDocument(server: Server, email: string, name: string, fileName: string): Promise<string> {
  const uploaded = await fetch(`${server.url}/api/document-signature/documents?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${linkToken(server, email)}`, 'content-type': 'application/pdf', 'x-file-name': fileName },
    body: Buffer.from(await makePdf(1, name)),
  });
  expect(uploaded.status).toBe(201);
  const documentId = ((await uploaded.json()) as { id: string }).id;
  expect(
    (await callAs(server, email, 'PUT', `/document-signature/documents/${documentId}/draft`, { name, fields: [SIGNATURE, NAME] }))
      .status,
  ).toBe(200);
  expect((await callAs(server, email, 'POST', `/document-signature/documents/${documentId}/publish`, {})).status).toBe(201);
  return documentId;
}

export type LoopbackConnect = {
  peer: StripePeer;
  connect: ConnectPeer;
  /** the server's environment for this Stripe and its Connect platform */
  env: Record<string, string>;
  /** where Connect events go from now on: the started server's webhook */
  deliverTo(server: Server): void;
};

/** The loopback Stripe with Connect, for a server yet to start: its events go to that server's webhook once told. */
export async function startLoopbackConnect(clientId: string, webhookSecret: string): Promise<LoopbackConnect> {
  let webhookUrl = '';
  const peer = await startStripePeer({ webhookSecret: 'whsec_billing_unused' });
  const connect = addStripeConnect(peer, {
    clientId,
    webhookSecret,
    deliver: async (payload, signature) =>
      (
        await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        })
      ).status,
  });
  return {
    peer,
    connect,
    env: connectServerEnv(peer, clientId, webhookSecret),
    deliverTo: (server) => void (webhookUrl = `${server.url}/api/payments/stripe/webhook`),
  };
}

/** Connects the account of `email` to Stripe as its admin would: the connect call, then the authorize step's callback. */
export async function connectStripe(server: Server, email: string, connect: ConnectPeer): Promise<void> {
  const started = await callAs(server, email, 'POST', '/payments/stripe/connect');
  const state = new URL(started.body.url as string).searchParams.get('state')!;
  const callback = await fetch(`${server.url}/api/payments/stripe/callback`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${linkToken(server, email)}`,
      'content-type': 'application/json',
      cookie: (started.headers.get('set-cookie') ?? '').split(';')[0]!,
    },
    body: JSON.stringify({ state, code: connect.authorize(state) }),
  });
  expect(callback.status).toBe(200);
}
