import { NotBuiltYet } from '../../../ui/Card';

export default function SingleSignOnSettings() {
  return (
    <NotBuiltYet title="Single Sign-On">
      Sign-in through Azure, Okta or any OpenID Connect provider. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
