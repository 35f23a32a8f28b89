import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_DOCUMENT_TYPES, IdvGeneralSettingsSchema } from '../../../../api/contract/apps/identity-verification';
import { GeneralSettings, type SettingField } from '../_frame/GeneralSettings';

const FIELDS: SettingField[] = [
  {
    name: 'minimumAge',
    label: 'Minimum age',
    hint: 'The minimum age check fails for anyone younger, by the date of birth in the document.',
    kind: 'integer',
    min: 0,
    max: 120,
  },
  {
    name: 'linkValidityMinutes',
    label: 'Link validity (minutes)',
    hint: "How long the customer's link works, 5 minutes to 7 days. A session not finished by then expires.",
    kind: 'integer',
    min: 5,
    max: 10080,
  },
  {
    name: 'documentTypes',
    label: 'Documents customers may show',
    kind: 'checkboxes',
    options: IDV_DOCUMENT_TYPES.map((d) => ({
      value: d.key,
      label: d.label,
      note: `(${d.back ? 'front and back' : 'photo page'}; MRZ ${d.mrz})`,
    })),
  },
];

export default function IdvGeneral({ app }: { app: AppDefinition }) {
  return (
    <GeneralSettings
      app={app}
      schema={IdvGeneralSettingsSchema}
      fields={FIELDS}
      lead="How identity verification works for your customers."
    />
  );
}
