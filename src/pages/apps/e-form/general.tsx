import type { AppDefinition } from '../../../../api/contract/apps';
import { EformGeneralSettingsSchema } from '../../../../api/contract/apps/e-form';
import { GeneralSettings, type SettingField } from '../_frame/GeneralSettings';

const FIELDS: SettingField[] = [
  {
    name: 'linkValidityDays',
    label: 'Link validity (days)',
    hint: 'How long a form link works, 1 to 30 days.',
    kind: 'integer',
    min: 1,
    max: 30,
  },
];

export default function EformGeneral({ app }: { app: AppDefinition }) {
  return (
    <GeneralSettings
      app={app}
      schema={EformGeneralSettingsSchema}
      fields={FIELDS}
      lead="How form links work for your customers."
    />
  );
}
