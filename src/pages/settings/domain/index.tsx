import { NotBuiltYet } from '../../../ui/Card';

export default function DomainSettings() {
  return (
    <NotBuiltYet title="Domain">
      A custom domain for your customer-facing pages, with DNS verification. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
