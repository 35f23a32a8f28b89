import { NotBuiltYet } from '../../../ui/Card';

export default function CustomerLookupSettings() {
  return (
    <NotBuiltYet title="Customer Lookup">
      The endpoint that finds your customers by phone number, with a test panel. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
