import type { Locale } from './locales';

// The built-in SMS text of every app's template in every caller language ({{name}} placeholders,
// as in the editable templates). English is each template's `defaultBody` in the app's contract;
// an admin's own text for a language replaces the built-in one for that language only.

type Translations = Record<Exclude<Locale, 'en'>, string>;

export const SMS_TRANSLATIONS: Record<string, Translations> = {
  'one-time-passcode.passcode': {
    es: 'Tu código de {{company}} es {{code}}. Caduca en {{ttl}} minutos. No lo compartas con nadie.',
    fr: 'Votre code {{company}} est {{code}}. Il expire dans {{ttl}} minutes. Ne le communiquez à personne.',
    de: 'Ihr {{company}}-Code lautet {{code}}. Er läuft in {{ttl}} Minuten ab. Geben Sie ihn niemals weiter.',
    'pt-BR': 'Seu código {{company}} é {{code}}. Ele expira em {{ttl}} minutos. Nunca o compartilhe com ninguém.',
    ar: 'رمز {{company}} الخاص بك هو {{code}}. تنتهي صلاحيته خلال {{ttl}} دقيقة. لا تشاركه مع أي شخص.',
    ja: '{{company}}の確認コードは{{code}}です。有効期限は{{ttl}}分です。このコードは誰にも教えないでください。',
  },
  'passkeys.enrollment': {
    es: '{{company}}: crea una llave de acceso para que te reconozcamos la próxima vez. Abre {{link}} (válido {{ttl}} minutos).',
    fr: '{{company}} : créez une clé d’accès pour que nous vous reconnaissions la prochaine fois. Ouvrez {{link}} (valable {{ttl}} minutes).',
    de: '{{company}}: Erstellen Sie einen Passkey, damit wir Sie beim nächsten Mal erkennen. Öffnen Sie {{link}} (gültig {{ttl}} Minuten).',
    'pt-BR':
      '{{company}}: crie uma chave de acesso para reconhecermos você na próxima vez. Abra {{link}} (válido por {{ttl}} minutos).',
    ar: '{{company}}: أنشئ مفتاح مرور لنتعرّف عليك في المرة القادمة. افتح {{link}} (صالح لمدة {{ttl}} دقيقة).',
    ja: '{{company}}：次回からすぐに本人確認できるよう、パスキーを作成してください。{{link}}（有効期限{{ttl}}分）',
  },
  'passkeys.verification': {
    es: '{{company}}: confirma que eres tú con tu llave de acceso. Abre {{link}} (válido {{ttl}} minutos).',
    fr: '{{company}} : confirmez votre identité avec votre clé d’accès. Ouvrez {{link}} (valable {{ttl}} minutes).',
    de: '{{company}}: Bestätigen Sie mit Ihrem Passkey, dass Sie es sind. Öffnen Sie {{link}} (gültig {{ttl}} Minuten).',
    'pt-BR': '{{company}}: confirme que é você com sua chave de acesso. Abra {{link}} (válido por {{ttl}} minutos).',
    ar: '{{company}}: أكّد هويتك باستخدام مفتاح المرور. افتح {{link}} (صالح لمدة {{ttl}} دقيقة).',
    ja: '{{company}}：パスキーでご本人であることを確認してください。{{link}}（有効期限{{ttl}}分）',
  },
  'identity-verification.link': {
    es: '{{company}} te pide verificar tu identidad con una foto de tu documento y un selfi: {{link}} (válido {{ttl}} minutos)',
    fr: '{{company}} vous demande de vérifier votre identité avec une photo de votre pièce d’identité et un selfie : {{link}} (valable {{ttl}} minutes)',
    de: '{{company}} bittet Sie, Ihre Identität mit einem Foto Ihres Ausweises und einem Selfie zu bestätigen: {{link}} (gültig {{ttl}} Minuten)',
    'pt-BR':
      '{{company}} pede que você confirme sua identidade com uma foto do documento e uma selfie: {{link}} (válido por {{ttl}} minutos)',
    ar: 'تطلب منك {{company}} التحقق من هويتك بصورة لوثيقة هويتك وصورة ذاتية: {{link}} (صالح لمدة {{ttl}} دقيقة)',
    ja: '{{company}}より本人確認のお願いです。身分証明書の写真とセルフィーをお送りください：{{link}}（有効期限{{ttl}}分）',
  },
  'identity-verification.resubmission': {
    es: '{{company}} necesita nuevas fotos para verificar tu identidad: {{link}} (válido {{ttl}} minutos)',
    fr: '{{company}} a besoin de nouvelles photos pour vérifier votre identité : {{link}} (valable {{ttl}} minutes)',
    de: '{{company}} benötigt neue Fotos, um Ihre Identität zu bestätigen: {{link}} (gültig {{ttl}} Minuten)',
    'pt-BR': '{{company}} precisa de novas fotos para confirmar sua identidade: {{link}} (válido por {{ttl}} minutos)',
    ar: 'تحتاج {{company}} إلى صور جديدة للتحقق من هويتك: {{link}} (صالح لمدة {{ttl}} دقيقة)',
    ja: '{{company}}：本人確認のため、写真をもう一度お送りください：{{link}}（有効期限{{ttl}}分）',
  },
  'document-signature.request': {
    es: '{{company}} te ha enviado un documento para firmar: {{link}}',
    fr: '{{company}} vous a envoyé un document à signer : {{link}}',
    de: '{{company}} hat Ihnen ein Dokument zur Unterschrift gesendet: {{link}}',
    'pt-BR': '{{company}} enviou um documento para você assinar: {{link}}',
    ar: 'أرسلت إليك {{company}} مستندًا للتوقيع: {{link}}',
    ja: '{{company}}から署名をお願いする書類が届いています：{{link}}',
  },
  'e-form.form': {
    es: '{{company}} te pide que rellenes un breve formulario: {{link}}',
    fr: '{{company}} vous invite à remplir un court formulaire : {{link}}',
    de: '{{company}} bittet Sie, ein kurzes Formular auszufüllen: {{link}}',
    'pt-BR': '{{company}} pede que você preencha um formulário rápido: {{link}}',
    ar: 'تطلب منك {{company}} تعبئة نموذج قصير: {{link}}',
    ja: '{{company}}より簡単なフォームへのご記入のお願いです：{{link}}',
  },
  'payments.payment_link': {
    es: '{{company}} te ha enviado un enlace de pago seguro: {{link}} Es válido durante {{ttl}} minutos.',
    fr: '{{company}} vous a envoyé un lien de paiement sécurisé : {{link}} Il est valable {{ttl}} minutes.',
    de: '{{company}} hat Ihnen einen sicheren Zahlungslink gesendet: {{link}} Er ist {{ttl}} Minuten gültig.',
    'pt-BR': '{{company}} enviou um link de pagamento seguro: {{link}} Ele vale por {{ttl}} minutos.',
    ar: 'أرسلت إليك {{company}} رابط دفع آمنًا: {{link}} يظل صالحًا لمدة {{ttl}} دقيقة.',
    ja: '{{company}}から安全なお支払いリンクが届いています：{{link}} 有効期限は{{ttl}}分です。',
  },
};

/** The built-in text of one app's template in a language (English is the template's own default). */
export function builtInSmsText(app: string, key: string, locale: Locale, englishDefault: string): string {
  return locale === 'en' ? englishDefault : (SMS_TRANSLATIONS[`${app}.${key}`]?.[locale] ?? englishDefault);
}
