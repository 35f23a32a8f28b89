import { NotBuiltYet } from '../../../ui/Card';

export default function SmsConfigurationSettings() {
  return (
    <NotBuiltYet title="SMS Configuration">
      The SMS provider that sends your passcodes and links. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
