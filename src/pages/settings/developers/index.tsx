import { OpenInBrowser } from '../../../app/OpenInBrowser';
import { NotBuiltYet } from '../../../ui/Card';

export default function DevelopersSettings() {
  return (
    <>
      <OpenInBrowser path="/settings/developers" />
      <NotBuiltYet title="Developers">
        Widget key, secret key and webhook secret for your integration. This screen is not built yet: it arrives in a later release of the console.
      </NotBuiltYet>
    </>
  );
}
