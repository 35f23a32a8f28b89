import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBootstrap, renderSignedIn } from '../helpers';

// The frame's General settings form with choices: Passkeys' selects and Identity Verification's
// document checkboxes, as an admin sees and saves them.

describe('Passkeys General settings', () => {
  it('shows the saved choices and saves a changed one with the link validity as a number', async () => {
    const settings = { userVerification: 'required', attestation: 'none', attachment: 'any', linkValidityMinutes: 15 };
    const { calls } = renderSignedIn('/passkeys/settings/general', makeBootstrap(), {
      'GET /api/passkeys/settings/general': { body: settings },
      'PUT /api/passkeys/settings/general': { body: { ...settings, attachment: 'platform' } },
    });
    const attachment = (await screen.findByLabelText(/Authenticator/)) as HTMLSelectElement;
    expect(attachment.value).toBe('any');
    expect(
      within(attachment)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Any', 'Platform (this device)', 'Cross-platform (security key)']);
    fireEvent.change(attachment, { target: { value: 'platform' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings have been saved');
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body)).toEqual({ ...settings, attachment: 'platform' });
  });
});

describe('Identity Verification General settings', () => {
  const bootstrap = () => makeBootstrap({ apps: ['identity-verification'] });

  it('refuses to save with no document ticked, and saves the ticked documents in the list order', async () => {
    const settings = { minimumAge: 18, linkValidityMinutes: 60, documentTypes: ['residence_permit'] };
    const { calls } = renderSignedIn('/identity-verification/settings/general', bootstrap(), {
      'GET /api/identity-verification/settings/general': { body: settings },
      'PUT /api/identity-verification/settings/general': {
        body: { ...settings, documentTypes: ['passport', 'residence_permit'] },
      },
    });
    const group = await screen.findByRole('group', { name: 'Documents customers may show' });
    expect(group.textContent).toContain('Passport (photo page; MRZ TD3 (2 lines of 44))');
    fireEvent.click(within(group).getByRole('checkbox', { name: /Residence permit/ }));
    expect(within(group).getByRole('alert').textContent).toBe('Accept at least one document type');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // the problem is said on the group, focus goes to its first box, the button keeps its label
    await waitFor(() => expect(document.activeElement).toBe(within(group).getByRole('checkbox', { name: /Passport/ })));
    // the refusal settles the button back to idle a moment after focus moves
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).getAttribute('data-phase')).toBe('idle'));
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(within(group).getByRole('checkbox', { name: /Residence permit/ }));
    fireEvent.click(within(group).getByRole('checkbox', { name: /Passport/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings have been saved');
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body)).toEqual({
      ...settings,
      documentTypes: ['passport', 'residence_permit'],
    });
  });
});
