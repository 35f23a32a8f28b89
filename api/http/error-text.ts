// The one place an error becomes text for a person or a log: answers, stored last errors
// (log_outbox.last_error, GET /api/logging), server log lines. Library errors quote what they
// were given (undici quotes an invalid header value in full, URLs carry credentials and tokens
// in their user part, path or query), so nothing reaches text before passing through here.

// C0 and C1 controls (CR/LF would forge log lines; NUL cuts strings), DEL included
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi;
// undici: 'Headers.append: "<value>" is an invalid header value.' (value may hold CR/LF)
const QUOTED_HEADER = /"[^"]*"\s+is an invalid header (name|value)/gi;

/** The deepest message in an error's cause chain: wrappers ("fetch failed") say least. */
export function innermostMessage(err: unknown): string {
  let message = '';
  let e: unknown = err;
  for (let depth = 0; depth < 8 && e; depth++) {
    if (e instanceof Error || (typeof e === 'object' && e !== null && 'message' in e)) {
      const m = String((e as { message?: unknown }).message ?? '');
      if (m) message = m;
      e = (e as { cause?: unknown }).cause;
    } else {
      if (typeof e === 'string' && e) message = e;
      break;
    }
  }
  return message;
}

export type ErrorTextOptions = {
  /** values that must never appear (the request's header values, keys, tokens, its body) */
  secrets?: readonly (string | null | undefined)[];
  /** longest text kept */
  max?: number;
};

/** Text of an error (or of a message already built) with every secret-bearing part removed. */
export function errorText(err: unknown, options: ErrorTextOptions = {}): string {
  let text = typeof err === 'string' ? err : innermostMessage(err);
  // longest first, so a secret containing another is removed whole
  const secrets = [...new Set((options.secrets ?? []).filter((s): s is string => !!s && s.trim().length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  for (const secret of secrets) {
    text = text.split(secret).join('[redacted]');
    // what a library did to it on the way: trimmed, or one line of it
    for (const part of secret.split(/[\r\n\0]+/)) if (part.trim().length >= 4) text = text.split(part.trim()).join('[redacted]');
  }
  text = text.replace(QUOTED_HEADER, (_m, what: string) => `a header ${what} is not valid`);
  text = text.replace(URL_IN_TEXT, (raw) => {
    try {
      const url = new URL(raw);
      // the origin says where; user, path and query may be the credential itself (collector URLs)
      return url.host ? `${url.protocol}//${url.host}` : '[address]';
    } catch {
      return '[address]';
    }
  });
  text = text
    .replace(CONTROL, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
  const max = options.max ?? 300;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A server log line: the message and the error's text, then its stack frames (no message text). */
export function logLine(message: string, err?: unknown): string {
  if (err === undefined || err === '') return errorText(message, { max: 2000 });
  const frames =
    err instanceof Error && err.stack
      ? err.stack
          .split('\n')
          .filter((l) => /^\s+at /.test(l))
          .join('\n')
      : '';
  const name = err instanceof Error ? `${err.name}: ` : '';
  return `${errorText(message, { max: 2000 })}: ${name}${errorText(err, { max: 1000 })}${frames ? `\n${frames}` : ''}`;
}
