import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SsoSettings } from '../../../api/contract/sso';
import { makeBootstrap, renderSignedIn } from '../helpers';

const TOKEN = 'switchboard-verification=0123456789abcdef0123456789abcdef';
const connected = (verified: boolean): SsoSettings => ({
  provider: 'oidc',
  azure: null,
  okta: null,
  oidc: {
    discoveryUrl: 'https://idp.acme.com/.well-known/openid-configuration',
    issuer: 'https://idp.acme.com',
    domain: 'acme.com',
    clientId: 'console',
  },
  domainProof: { name: '_switchboard-challenge.acme.com', value: TOKEN, verified },
});

describe('Single Sign-On domain verification', () => {
  // a lazy page: compile it first so the tests time the page, not the compiler
  beforeAll(() => import('../../../src/pages/settings/single-sign-on'), 60_000);

  it('an unproven domain shows the TXT record to add and says nobody is sent to the provider yet', async () => {
    renderSignedIn('/settings/single-sign-on', makeBootstrap(), { 'GET /api/sso': { body: connected(false) } });
    const card = await screen.findByTestId('sso-domain-proof');
    expect(within(card).getByText('Not verified')).toBeTruthy();
    expect(card.textContent).toContain('Nobody is sent to this provider until you prove that acme.com is yours.');
    expect(within(card).getByText('_switchboard-challenge.acme.com')).toBeTruthy();
    expect(within(card).getByText(TOKEN)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Copy the TXT record value' })).toBeTruthy();
  });

  it('Verify with the record missing says what was not found, inline', async () => {
    const message =
      "No TXT record with this account's verification value was found at _switchboard-challenge.acme.com. DNS changes can take a while to reach everyone: try again in a few minutes.";
    renderSignedIn('/settings/single-sign-on', makeBootstrap(), {
      'GET /api/sso': { body: connected(false) },
      'POST /api/sso/verify': { status: 422, body: { code: 'SSO_DOMAIN_UNPROVEN', message, fields: { domain: message } } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    const shown = await within(screen.getByTestId('sso-domain-proof')).findByText(message);
    expect(shown.getAttribute('role')).toBe('alert');
  });

  it('Verify with the record in place turns the card to verified', async () => {
    renderSignedIn('/settings/single-sign-on', makeBootstrap(), {
      'GET /api/sso': { body: connected(false) },
      'POST /api/sso/verify': { body: connected(true) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByTestId('sso-domain-proof').textContent).toContain(
        'People with an e-mail address at acme.com sign in through this provider.',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();
  });

  it('managing with a new discovery URL asks for the client secret again before saving', async () => {
    const { calls } = renderSignedIn('/settings/single-sign-on', makeBootstrap(), { 'GET /api/sso': { body: connected(true) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage OpenID Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage OpenID Connect' });
    fireEvent.change(within(dialog).getByLabelText(/Discovery URL/), {
      target: { value: 'https://other-idp.example/.well-known/openid-configuration' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Client Secret is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
