import { OTP_APP, OTP_TEMPLATES } from '../../api/contract/apps/one-time-passcode';
import { PASSKEYS_APP, PASSKEY_TEMPLATES } from '../../api/contract/apps/passkeys';
import { IDV_APP, IDV_TEMPLATES } from '../../api/contract/apps/identity-verification';
import { SIG_APP, SIG_TEMPLATES } from '../../api/contract/apps/document-signature';
import { EFORM_APP, EFORM_TEMPLATES } from '../../api/contract/apps/e-form';
import { PAYMENTS_APP, PAYMENTS_TEMPLATES } from '../../api/contract/apps/payments';

/** Every SMS template of every app, by app. */
export const APP_MODULES_TEMPLATES = [
  ...OTP_TEMPLATES.map((t) => ({ app: OTP_APP, ...t })),
  ...PASSKEY_TEMPLATES.map((t) => ({ app: PASSKEYS_APP, ...t })),
  ...IDV_TEMPLATES.map((t) => ({ app: IDV_APP, ...t })),
  ...SIG_TEMPLATES.map((t) => ({ app: SIG_APP, ...t })),
  ...EFORM_TEMPLATES.map((t) => ({ app: EFORM_APP, ...t })),
  ...PAYMENTS_TEMPLATES.map((t) => ({ app: PAYMENTS_APP, ...t })),
];
