import { NotBuiltYet } from '../../../ui/Card';

export default function AuditLogSettings() {
  return (
    <NotBuiltYet title="Audit log">
      Every change made in the console, with export. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
