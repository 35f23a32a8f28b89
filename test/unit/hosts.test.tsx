import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Host, HostKind, TokenResult } from '../../hosts/host';
import { UnauthorizedCard } from '../../hosts/UnauthorizedCard';
import { makeBootstrap, makeToken, mockApi, renderConsole } from './helpers';

/** An embedded host whose sign-in answers what the test says (the real adapters have their own tests). */
function embeddedHost(kind: Exclude<HostKind, 'browser'>, acquireToken: () => Promise<TokenResult>): Host {
  return { kind, embedded: true, basePath: `/${kind}`, acquireToken, UnauthorizedCard };
}

describe('embedded hosts', () => {
  it('shows nothing inside an embedded host before it has a token', async () => {
    const { container } = renderConsole({ path: '/zoom/', host: embeddedHost('zoom', async () => ({ outcome: 'none' })) });
    await act(async () => {});
    expect(container.textContent).toBe('');
  });

  it('shows nothing while the host is still signing in', async () => {
    const host = embeddedHost('webex', () => new Promise(() => {}));
    const { container } = renderConsole({ path: '/webex/', host });
    await act(async () => {});
    expect(container.textContent).toBe('');
  });

  it('mounts the console under the host base path once it has a token', async () => {
    mockApi({ 'GET /api/admins/bootstrap': { body: makeBootstrap() } });
    const token = makeToken();
    renderConsole({ path: '/zoom/passkeys', token, host: embeddedHost('zoom', async () => ({ outcome: 'token', token })) });
    expect(await screen.findByRole('navigation', { name: 'Passkeys sections' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Activity' }).getAttribute('href')).toBe('/zoom/passkeys/activity');
  });

  it("shows You're not yet authorized with the Agent Preview when the host says so", async () => {
    const host = embeddedHost('zoom', async () => ({ outcome: 'unauthorized' }));
    renderConsole({ path: '/zoom/', host });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Agent Preview list' })).toBeTruthy();
  });

  it('shows the message of a failed host sign-in', async () => {
    const host = embeddedHost('webex', async () => ({ outcome: 'error', message: 'An error occurred' }));
    renderConsole({ path: '/webex/', host });
    expect(await screen.findByText('An error occurred')).toBeTruthy();
  });
});
