// Every app module registers itself with the frame when imported; adding an app is adding its
// folder and one line here.
import './one-time-passcode/module';
import './passkeys/module';
import './identity-verification/module';
import './e-form/module';
import './payments/module';
import './document-signature/module';

export { appModule, appModules } from './platform/registry';
