import type { AppDefinition } from '../../../../api/contract/apps';
import { OtpGeneralSettingsSchema } from '../../../../api/contract/apps/one-time-passcode';
import { GeneralSettings, type SettingField } from '../_frame/GeneralSettings';

const FIELDS: SettingField[] = [
  { name: 'codeLength', label: 'Code length', hint: 'Digits in each passcode, 4 to 10.', kind: 'integer', min: 4, max: 10 },
  {
    name: 'validityMinutes',
    label: 'Validity (minutes)',
    hint: 'How long a passcode works, 2 to 30 minutes.',
    kind: 'integer',
    min: 2,
    max: 30,
  },
  {
    name: 'maxChecks',
    label: 'Check attempts',
    hint: 'Wrong codes allowed before the passcode stops working.',
    kind: 'integer',
    min: 1,
    max: 20,
  },
  {
    name: 'sendsPer10Minutes',
    label: 'Sends per number per 10 minutes',
    hint: 'Resends included.',
    kind: 'integer',
    min: 1,
    max: 20,
  },
];

export default function OtpGeneral({ app }: { app: AppDefinition }) {
  return (
    <GeneralSettings app={app} schema={OtpGeneralSettingsSchema} fields={FIELDS} lead="How passcodes work for your callers." />
  );
}
