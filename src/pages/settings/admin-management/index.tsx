import { NotBuiltYet } from '../../../ui/Card';

export default function AdminManagementSettings() {
  return (
    <NotBuiltYet title="Admin Management">
      Pending invitations, active administrators and their roles. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
