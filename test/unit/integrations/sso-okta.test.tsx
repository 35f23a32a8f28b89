import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SsoSettings } from '../../../api/contract/sso';
import { makeBootstrap, renderSignedIn } from '../helpers';

const none: SsoSettings = { provider: null, azure: null, okta: null, oidc: null, domainProof: null };

describe('Single Sign-On: Okta', () => {
  beforeAll(() => import('../../../src/pages/settings/single-sign-on'), 60_000);

  it('asks for the tenant and no Discovery URL, and sends the tenant as typed for the server to derive the rest', async () => {
    const { calls } = renderSignedIn('/settings/single-sign-on', makeBootstrap(), {
      'GET /api/sso': { body: none },
      'POST /api/sso': {
        status: 400,
        body: {
          code: 'SSO_DISCOVERY_FAILED',
          message: 'x',
          fields: {
            'okta.tenant':
              'The discovery document could not be read from https://acme.okta.com/.well-known/openid-configuration. Check the Tenant.',
          },
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Okta' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText(/^Discovery URL/)).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/^Tenant/), { target: { value: 'acme' } });
    fireEvent.change(within(dialog).getByLabelText(/^Domain/), { target: { value: 'acme.com' } });
    fireEvent.change(within(dialog).getByLabelText(/^Client ID/), { target: { value: 'client' } });
    fireEvent.change(within(dialog).getByLabelText(/^Client Secret/), { target: { value: 'secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/sso')).toBe(true));
    const body = JSON.parse(calls.find((c) => c.method === 'POST' && c.path === '/api/sso')!.body) as {
      okta: Record<string, string>;
    };
    expect(body.okta.tenant).toBe('acme.okta.com');
    expect(body.okta).not.toHaveProperty('discoveryUrl');
    // the server's refusal lands on the Tenant field
    expect(
      await within(dialog).findByText(
        /could not be read from https:\/\/acme\.okta\.com\/\.well-known\/openid-configuration\. Check the Tenant\./,
      ),
    ).toBeTruthy();
  });
});
