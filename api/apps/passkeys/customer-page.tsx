/** @jsxImportSource hono/jsx */
import { registerCustomerPage, type CustomerPageHandler } from '../../customer-pages/frame';
import { pageState } from './service';

// The page a passkey link opens: server HTML in the account's branding, and the `passkeys`
// script (src/customer-pages/passkeys.ts) that runs the ceremony. Opening the page changes
// nothing (link previews fetch it too); the ceremony starts when the customer presses the button.

const handler: CustomerPageHandler = async (_c, link, branding, deps) => {
  const { t } = link;
  const state = await pageState(deps, link.accountId, link.taskId!);
  if (!state.open) {
    return { title: t('state.used.title'), body: <p>{t('state.used.text')}</p> };
  }
  if (!state.hasPasskey) {
    return { title: t('passkey.noPasskey.title'), body: <p>{t('passkey.noPasskey.text', { company: branding.name })}</p> };
  }
  const enrolling = state.kind === 'enrollment';
  // what the script says while and after it runs, in the page's language
  const words = {
    'data-follow': t('passkey.followSteps'),
    'data-retry': t('passkey.tryAgain'),
    'data-cannot-use': t('passkey.cannotUse.title'),
    'data-wrong': t('passkey.somethingWrong'),
    'data-cancelled-title': t('passkey.cancelled.title'),
    'data-cancelled-text': t('passkey.cancelled.text'),
    'data-unsupported-title': t('passkey.unsupported.title'),
    'data-unsupported-text': t('passkey.unsupported.text'),
  };
  return {
    title: enrolling ? t('passkey.enroll.title') : t('passkey.verify.title'),
    body: (
      // the ceremony's calls name this link: inside a journey's page the address is the journey's (api/journeys)
      <div data-passkey={state.kind} data-passkey-base={`/api/c/${link.token}/passkey`} {...words}>
        <p data-passkey-intro>
          {enrolling
            ? state.displayName
              ? t('passkey.enroll.text', { name: state.displayName, company: branding.name })
              : t('passkey.enroll.textNoName', { company: branding.name })
            : t('passkey.verify.text', { company: branding.name })}
        </p>
        <button type="button" data-passkey-start data-early-click>
          {enrolling ? t('passkey.enroll.button') : t('passkey.verify.button')}
        </button>
        <div data-passkey-result role="status" aria-live="polite"></div>
        <noscript>
          <p>{t('passkey.noScript')}</p>
        </noscript>
      </div>
    ),
    script: 'passkeys',
  };
};

registerCustomerPage('passkey.enroll', handler);
registerCustomerPage('passkey.verify', handler);
