import { NotBuiltYet } from '../../../ui/Card';

export default function LoggingSettings() {
  return (
    <NotBuiltYet title="Logging">
      Ship activity logs to Datadog, CloudWatch, Sumo Logic or Rapid7. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
