import type { AppDefinition } from '../../../../api/contract/apps';
import { SigGeneralSettingsSchema } from '../../../../api/contract/apps/document-signature';
import { GeneralSettings, type SettingField } from '../_frame/GeneralSettings';

const FIELDS: SettingField[] = [
  {
    name: 'defaultExpiryDays',
    label: 'Default expiry (days)',
    hint: 'How long a signature link works unless the request says otherwise, 1 to 30 days.',
    kind: 'integer',
    min: 1,
    max: 30,
  },
  {
    name: 'consentText',
    label: 'Consent text',
    hint: 'What the signer accepts before signing. It is recorded on the certificate of completion.',
    kind: 'text',
  },
];

export default function SigGeneral({ app }: { app: AppDefinition }) {
  return (
    <GeneralSettings
      app={app}
      schema={SigGeneralSettingsSchema}
      fields={FIELDS}
      lead="How signature requests work for your customers."
    />
  );
}
