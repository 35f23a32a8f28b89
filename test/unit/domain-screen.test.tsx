import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBootstrap, renderSignedIn } from './helpers';

const settings = (domain: string | null) => ({
  name: 'Acme Support',
  logo: '',
  color: '#2563EB',
  domain,
  domainIsVerified: false,
  cnameTarget: 'custom.switchboard.example',
  domainChallenge: 'switchboard-verification=abc123',
});

describe('custom domain screen', () => {
  it('says what is wrong with a typed domain instead of only disabling Verify', async () => {
    renderSignedIn('/settings/domain', makeBootstrap(), { 'GET /api/branding': { body: settings(null) } });
    const input = await screen.findByLabelText(/^Domain/);
    fireEvent.change(input, { target: { value: 'https://console.acme.com/login' } });
    expect(screen.getByText('Enter the domain only, without https:// or a path, e.g. console.yourcompany.com.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Verify domain' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'console.acme.abcdef' } });
    expect(screen.getByText('End with a top-level domain of 2 to 5 letters, such as .com or .io.')).toBeTruthy();
  });

  it('keeps a mistyped domain out of the DNS records to copy', async () => {
    renderSignedIn('/settings/domain', makeBootstrap(), { 'GET /api/branding': { body: settings(null) } });
    fireEvent.change(await screen.findByLabelText(/^Domain/), { target: { value: 'Console.Acme.com' } });
    const table = screen.getByRole('table', { name: 'DNS records' });
    expect(table.textContent).not.toContain('Console.Acme.com');
    expect(table.textContent).toContain('your domain');
  });

  it('names the missing record while the domain waits for DNS', async () => {
    renderSignedIn('/settings/domain', makeBootstrap(), {
      'GET /api/branding': { body: settings('console.acme.com') },
      'PUT /api/branding/domain': {
        status: 422,
        body: {
          code: 'DNS_INVALID',
          message: 'DNS settings are invalid',
          fields: { txt: 'No TXT record with this account’s verification value was found' },
        },
      },
    });
    await screen.findByRole('heading', { name: 'Verifying your domain' });
    await waitFor(() =>
      expect(screen.getByTestId('domain-missing').textContent).toBe(
        'Not found yet: the TXT record. The CNAME record is in place.',
      ),
    );
  });
});
