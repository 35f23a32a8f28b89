import type { AppDefinition } from '../../../../api/contract/apps';
import { PasskeyGeneralSettingsSchema } from '../../../../api/contract/apps/passkeys';
import { GeneralSettings, type SettingField } from '../_frame/GeneralSettings';

const FIELDS: SettingField[] = [
  {
    name: 'userVerification',
    label: 'User verification',
    hint: 'Required: the customer must unlock the passkey with a fingerprint, face or PIN. Preferred: asked for where the device can.',
    kind: 'select',
    options: [
      { value: 'required', label: 'Required' },
      { value: 'preferred', label: 'Preferred' },
    ],
  },
  {
    name: 'attestation',
    label: 'Attestation',
    hint: 'Direct asks the authenticator to say what it is (some show a prompt); none keeps enrollment simplest.',
    kind: 'select',
    options: [
      { value: 'none', label: 'None' },
      { value: 'direct', label: 'Direct' },
    ],
  },
  {
    name: 'attachment',
    label: 'Authenticator',
    hint: 'Platform: the phone or computer itself. Cross-platform: a security key or another phone.',
    kind: 'select',
    options: [
      { value: 'any', label: 'Any' },
      { value: 'platform', label: 'Platform (this device)' },
      { value: 'cross-platform', label: 'Cross-platform (security key)' },
    ],
  },
  {
    name: 'linkValidityMinutes',
    label: 'Link validity (minutes)',
    hint: 'How long an enrollment or verification link works, 5 to 1440 minutes.',
    kind: 'integer',
    min: 5,
    max: 1440,
  },
];

export default function PasskeysGeneral({ app }: { app: AppDefinition }) {
  return (
    <GeneralSettings
      app={app}
      schema={PasskeyGeneralSettingsSchema}
      fields={FIELDS}
      lead="How passkeys are created and checked for your callers."
    />
  );
}
