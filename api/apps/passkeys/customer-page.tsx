/** @jsxImportSource hono/jsx */
import { registerCustomerPage, type CustomerPageHandler } from '../../customer-pages/frame';
import { pageState } from './service';

// The page a passkey link opens: server HTML in the account's branding, and the `passkeys`
// script (src/customer-pages/passkeys.ts) that runs the ceremony. Opening the page changes
// nothing (link previews fetch it too); the ceremony starts when the customer presses the button.

const handler: CustomerPageHandler = async (_c, link, branding, deps) => {
  const state = await pageState(deps, link.accountId, link.taskId!);
  if (!state.open) {
    return { title: 'This link has already been used', body: <p>Each link works once. If you still need to do something, ask for a new link.</p> };
  }
  if (!state.hasPasskey) {
    return {
      title: 'You have no passkey with us',
      body: (
        <p>
          The passkey you had with {branding.name} was removed, so it cannot be used to confirm it is you. Ask the person you are speaking with to help you set up
          a new one.
        </p>
      ),
    };
  }
  const enrolling = state.kind === 'enrollment';
  return {
    title: enrolling ? 'Create a passkey' : 'Confirm it is you',
    body: (
      <div data-passkey={state.kind}>
        <p data-passkey-intro>
          {enrolling
            ? `Hello ${state.displayName}. ${branding.name} asks you to create a passkey on this device. Next time you call, you can confirm it is you in seconds, with your fingerprint, face or screen lock, instead of answering security questions.`
            : `${branding.name} asks you to confirm it is you with the passkey you created before. Your device will ask for your fingerprint, face or screen lock.`}
        </p>
        <button type="button" data-passkey-start disabled>
          {enrolling ? 'Create a passkey' : 'Use my passkey'}
        </button>
        <div data-passkey-result role="status" aria-live="polite"></div>
        <noscript>
          <p>This page needs JavaScript to use passkeys. Turn it on, or open the link in another browser.</p>
        </noscript>
      </div>
    ),
    script: 'passkeys',
  };
};

registerCustomerPage('passkey.enroll', handler);
registerCustomerPage('passkey.verify', handler);
