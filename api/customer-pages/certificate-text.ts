import { DEFAULT_LOCALE, type Locale } from '../contract/locales';
import { translate, type MessageKey, type MessageValues } from './i18n/index';

// The words of the sealed document's certificate of completion in the signer's language, with
// English beside it (the certificate is also read by whoever checks it later, often in English).
// The PDF's fonts and shaping (Arabic, Japanese) belong to the PDF's own code: this only gives
// the text, one line per call.

export type CertificateKey = Extract<MessageKey, `cert.${string}`>;

/** "Certificado de finalización / Certificate of completion"; English alone for an English signer. */
export function certificateLine(locale: Locale, key: CertificateKey, values?: MessageValues): string {
  const english = translate(DEFAULT_LOCALE, key, values);
  if (locale === DEFAULT_LOCALE) return english;
  return `${translate(locale, key, values)} / ${english}`;
}

/** Both versions apart, for a layout that sets them side by side (or in two columns). */
export function certificateText(locale: Locale, key: CertificateKey, values?: MessageValues): { text: string; english: string } {
  return { text: translate(locale, key, values), english: translate(DEFAULT_LOCALE, key, values) };
}
