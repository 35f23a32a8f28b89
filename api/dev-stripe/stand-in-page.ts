import { escapeHtml } from '../http/escape-html';

// The pages of the development stand-in (Checkout, Connect's authorize page, the portal), each
// marked as development, and the test cards they name.

/** What the pages of the stand-in say at the top: what it is, and that nothing real happens. */
export const STAND_IN_BANNER =
  'Development Stripe stand-in: a test double of Stripe running on this machine. No card is charged and no money moves; it is never used in production.';

/** A page of the stand-in (Checkout, Connect's authorize page, the portal): marked as development. */
export function standInPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} (development Stripe stand-in)</title>
<style>body{font-family:system-ui,sans-serif;margin:0;color:#111827;background:#f6f7f9}main{max-width:30rem;margin:0 auto;padding:16px}
.standin{background:#fef3c7;color:#78350f;border-bottom:1px solid #f59e0b;padding:8px 16px;font-size:14px;margin:0}
label{display:block;margin:12px 0 4px;font-weight:600}input{font:inherit;padding:8px;width:100%;box-sizing:border-box;border:1px solid #9ca3af;border-radius:6px}
button,.button{font:inherit;margin-top:12px;padding:8px 16px;border-radius:6px;border:0;background:#4f46e5;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
.error{color:#b91c1c;font-weight:600}ul.cards{padding-left:18px;font-size:14px}code{font-size:13px}</style></head>
<body><p class="standin" role="note"><strong>Development</strong> · ${escapeHtml(STAND_IN_BANNER)}</p><main>${body}</main></body></html>`;
}

/** The test cards the stand-in knows, as Stripe's test mode documents them. */
export const TEST_CARDS = { succeeds: '4242424242424242', declined: '4000000000000002' } as const;
export const isDeclinedCard = (card: unknown) => String(card ?? '').replace(/\s/g, '') === TEST_CARDS.declined;
export const testCardsHint = () =>
  `<ul class="cards"><li><code>4242 4242 4242 4242</code>: the payment succeeds</li><li><code>4000 0000 0000 0002</code>: the card is declined</li></ul>`;
