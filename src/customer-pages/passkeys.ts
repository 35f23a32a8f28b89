// The passkey customer page's script (built by build.mjs, loaded with the page's CSP nonce): it
// asks the server for ceremony options, runs the ceremony with @simplewebauthn/browser and posts
// the answer back. The server decides everything; this only carries messages and shows results.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

type Result = { ok: boolean; title: string; message: string; retry: boolean };

const root = document.querySelector<HTMLElement>('[data-passkey]');
const button = document.querySelector<HTMLButtonElement>('button[data-passkey-start]');
const out = document.querySelector<HTMLElement>('[data-passkey-result]');
const heading = document.querySelector('h1');
const base = root?.dataset.passkeyBase ?? `/api${location.pathname.replace(/\/$/, '')}/passkey`;
// the page's language: the server answers in it, and wrote the script's own words into data-*
const lang = `?lang=${encodeURIComponent(document.documentElement.lang)}`;
const words = root?.dataset ?? {};

function show(r: Result) {
  if (heading) heading.textContent = r.title;
  if (out) out.textContent = r.message;
  if (button) {
    button.hidden = !r.retry;
    button.disabled = !r.retry;
    if (r.retry) button.textContent = words.retry ?? '';
  }
  document.querySelector('[data-passkey-intro]')?.toggleAttribute('hidden', !r.retry);
  // one step of a journey: once it succeeded, the journey's page (its next step) comes back on its own
  const onward = document.querySelector<HTMLAnchorElement>('a[data-journey-next]');
  if (r.ok && onward) location.assign(onward.href);
}

async function post(step: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/${step}${lang}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw Object.assign(new Error(String(json.message ?? words.wrong ?? '')), { server: true });
  return json;
}

async function run(kind: string) {
  if (!button || !out) return;
  button.disabled = true;
  out.textContent = words.follow ?? '';
  let options: Record<string, unknown>;
  try {
    options = (await post('options')).options as Record<string, unknown>;
  } catch (err) {
    show({ ok: false, title: words.cannotUse ?? '', message: (err as Error).message, retry: false });
    return;
  }
  let answer: unknown;
  try {
    answer =
      kind === 'enrollment'
        ? await startRegistration({ optionsJSON: options as never })
        : await startAuthentication({ optionsJSON: options as never });
  } catch {
    // the prompt was cancelled, timed out or refused: the server records it; the link still works
    show(
      ((await post('abandoned', { reason: 'cancelled' }).catch(() => null)) as Result | null) ?? {
        ok: false,
        title: words.cancelledTitle ?? '',
        message: words.cancelledText ?? '',
        retry: true,
      },
    );
    return;
  }
  try {
    show((await post('verify', answer)) as Result);
  } catch (err) {
    show({ ok: false, title: words.cannotUse ?? '', message: (err as Error).message, retry: false });
  }
}

if (root && button) {
  const kind = root.dataset.passkey ?? '';
  if (!browserSupportsWebAuthn()) {
    void post('abandoned', { reason: 'unsupported' }).then(
      (r) => show(r as Result),
      () => undefined,
    );
    show({ ok: false, title: words.unsupportedTitle ?? '', message: words.unsupportedText ?? '', retry: false });
  } else {
    button.disabled = false;
    button.addEventListener('click', () => void run(kind));
    // the frame kept a press made before this script ran: act on it now
    button.dataset.ready = '1';
    if (button.dataset.clicked) void run(kind);
  }
}
