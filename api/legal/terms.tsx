/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { raw } from 'hono/html';
import { renderHtml } from '../http/render-html';

// The terms of service the sign-up page links to. A provider that runs the console points
// TERMS_URL at its own terms (the address is answered with a redirect); without it this page is
// the default: the service's standard terms, public, server-rendered, no console code.

export const TERMS_PATH = '/terms';

const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,sans-serif;color:#111827;background:#F9FAFB}
main{max-width:44rem;margin:0 auto;padding:24px 16px 48px}h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.0625rem;margin:24px 0 4px}
.muted{color:#4B5563}`;

function TermsPage() {
  return (
    <html lang="en">
      {/* as a string: hono/jsx renders head elements through a render context (api/http/render-html.ts) */}
      {raw(
        `<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width,initial-scale=1"/><link rel="icon" href="data:,"/><title>Terms of Service · Switchboard</title><style>${CSS}</style></head>`,
      )}
      <body>
        <main>
          <h1>Terms of Service</h1>
          <p class="muted">Version 1.0 · Effective 1 January 2025</p>
          <p>
            These terms govern the use of the Switchboard console and its apps (the "Services") by the organisation that signs up
            (the "Customer") and the people it adds as administrators and agents. By creating an account you accept them on the
            Customer's behalf and confirm that you may do so.
          </p>
          <h2>1. The Services</h2>
          <p>
            The Services let the Customer's agents verify and serve the Customer's own customers during calls: one-time passcodes,
            passkeys, document signature, electronic forms, payments and identity verification, with the records those activities
            produce. Apps may be added, changed or retired; an app that is retired is announced at least 90 days ahead.
          </p>
          <h2>2. Accounts and access</h2>
          <p>
            The Customer keeps its administrators' sign-in methods secure, decides who has access and at which role, and is
            responsible for what is done with its account. The provider's staff may act in the account only to support it; every
            such action is recorded in the account's audit log.
          </p>
          <h2>3. Acceptable use</h2>
          <p>
            The Services may be used only with the consent the law requires from the people contacted, never to send unsolicited
            messages, and never to collect data the Customer has no right to hold. The provider may suspend sending that endangers
            its service or its message routes (for example SMS traffic pumping) and says why when it does.
          </p>
          <h2>4. Data</h2>
          <p>
            The Customer's data stays the Customer's. The provider processes it only to provide the Services, as set out in the
            Data Processing Addendum, which forms part of these terms.
          </p>
          <h2>5. Free trials, plans and payment</h2>
          <p>
            Each app starts with a free trial. After it, an app is used on a subscription or an enterprise agreement; prices and
            the credits each plan includes are shown on the app's pricing page before anything is charged. Subscriptions renew
            monthly until cancelled; a cancellation takes effect at the end of the paid period.
          </p>
          <h2>6. Availability and support</h2>
          <p>
            The provider works to keep the Services available and secure, announces planned maintenance in advance, and answers
            support requests through the contacts shown in the console.
          </p>
          <h2>7. Liability</h2>
          <p>
            To the extent the law allows, each party's liability under these terms is limited to the fees paid for the Services in
            the twelve months before the claim, and neither party is liable for indirect or consequential loss.
          </p>
          <h2>8. Changes and termination</h2>
          <p>
            The provider announces changes to these terms at least 30 days before they apply. The Customer may close its account
            at any time; its data is returned or deleted as the Data Processing Addendum says.
          </p>
        </main>
      </body>
    </html>
  );
}

/**
 * GET /terms: a redirect to the provider's own terms (TERMS_URL) when it has set them, else the
 * default page above.
 */
/** The page is the same for everyone: made once. */
let termsHtml: string | undefined;

export function termsRoutes(termsUrl: string | undefined) {
  const app = new Hono();
  app.get(TERMS_PATH, (c) => {
    if (termsUrl) return c.redirect(termsUrl, 302);
    c.header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    c.header('referrer-policy', 'no-referrer');
    c.header('x-content-type-options', 'nosniff');
    c.header('cache-control', 'public, max-age=3600');
    return c.html((termsHtml ??= '<!doctype html>' + renderHtml(<TermsPage />)));
  });
  return app;
}
