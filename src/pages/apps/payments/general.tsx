import type { AppDefinition } from '../../../../api/contract/apps';
import { LINK_MINUTES, PaymentsGeneralSettingsSchema } from '../../../../api/contract/apps/payments';
import { GeneralSettings, type SettingField } from '../_frame/GeneralSettings';

const FIELDS: SettingField[] = [
  {
    name: 'defaultCurrency',
    label: 'Default currency',
    hint: 'Three letters (usd, eur, jpy…): for amounts typed without a currency, and the dashboard totals.',
    kind: 'text',
  },
  {
    name: 'linkValidityMinutes',
    label: 'Link validity (minutes)',
    hint: `How long a payment link works: ${LINK_MINUTES.min} minutes to 24 hours (${LINK_MINUTES.max}).`,
    kind: 'integer',
    min: LINK_MINUTES.min,
    max: LINK_MINUTES.max,
  },
  {
    name: 'statementDescriptorSuffix',
    label: 'Statement descriptor suffix',
    hint: 'Added to your Stripe statement descriptor on the customer’s card statement (up to 22 characters). Empty uses Stripe’s.',
    kind: 'text',
  },
];

export default function PaymentsGeneral({ app }: { app: AppDefinition }) {
  return (
    <GeneralSettings
      app={app}
      schema={PaymentsGeneralSettingsSchema}
      fields={FIELDS}
      lead="How payment requests work for your callers."
    />
  );
}
