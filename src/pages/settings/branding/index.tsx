import { NotBuiltYet } from '../../../ui/Card';

export default function BrandingSettings() {
  return (
    <NotBuiltYet title="Branding">
      Company name, SVG logo and brand colour. This screen is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
