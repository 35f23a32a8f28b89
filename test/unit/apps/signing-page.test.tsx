import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SigCertificate, SigSigning } from '../../../api/contract/apps/document-signature';
import { makeBootstrap, renderSignedIn } from '../helpers';

// Document Signature > Configuration > Signing: who seals, the account's certificates, the
// upload (PKCS#12 or PEM, optional takeover time) and removal with a confirmation.

const PATH = '/document-signature/settings/signing';
const API = '/api/document-signature/signing';

const cert = (over: Partial<SigCertificate> = {}): SigCertificate => ({
  id: '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11',
  subject: 'Acme Insurance Signing',
  issuer: 'CN=Acme CA, O=Acme',
  serial: '1000',
  fingerprint: 'AA:BB',
  keyType: 'EC P-256',
  notBefore: '2026-01-01T00:00:00.000Z',
  notAfter: '2027-01-01T00:00:00.000Z',
  activeFrom: '2026-01-02T00:00:00.000Z',
  uploadedBy: 'Olivia Owens',
  uploadedAt: '2026-01-02T00:00:00.000Z',
  state: 'active',
  ...over,
});

const view = (over: Partial<SigSigning> = {}): SigSigning => ({
  certificates: [],
  providerCertificate: { subject: 'Switchboard Signing', development: false },
  timestampAuthority: 'https://tsa.example/tsr',
  ...over,
});

describe('Document Signature signing configuration', () => {
  it("without a certificate of its own, the platform's seals and the page says so, with the trusted time", async () => {
    renderSignedIn(PATH, makeBootstrap(), { [`GET ${API}`]: { body: view() } });
    expect(await screen.findByText('No certificate uploaded')).toBeTruthy();
    expect(screen.getByText(/The platform's certificate/).textContent).toContain('Switchboard Signing');
    expect(screen.getByText(/trusted timestamp from https:\/\/tsa.example\/tsr/)).toBeTruthy();
  });

  it('without a time-stamping authority the page says seals are PAdES B-B', async () => {
    renderSignedIn(PATH, makeBootstrap(), { [`GET ${API}`]: { body: view({ timestampAuthority: null }) } });
    expect(await screen.findByText(/seals are PAdES B-B/)).toBeTruthy();
  });

  it('uploads a PKCS#12 file with its password; a refusal shows the reason and keeps the form', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: { code: 'CERTIFICATE_INVALID', message: 'The password does not open this PKCS#12 file.' },
    };
    const { calls } = renderSignedIn(PATH, makeBootstrap(), {
      [`GET ${API}`]: { body: view() },
      [`POST ${API}/certificates`]: () => answer,
    });
    const form = await screen.findByRole('form', { name: 'Upload a signing certificate' });
    const file = new File([new Uint8Array([48, 130, 1, 2])], 'acme.p12', { type: 'application/x-pkcs12' });
    fireEvent.change(within(form).getByLabelText(/^File/), { target: { files: [file] } });
    fireEvent.change(within(form).getByLabelText(/^Password/), { target: { value: 'wrong' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Upload certificate' }));
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'The password does not open this PKCS#12 file.');
    const sent = JSON.parse(calls.find((c) => c.method === 'POST')!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({ format: 'pkcs12', file: 'MIIBAg==', password: 'wrong', activeFrom: null });

    answer = { status: 201, body: cert() };
    fireEvent.change(within(form).getByLabelText(/^Password/), { target: { value: 'right' } });
    // the button flashes 'Not uploaded' after the refusal; it is the form's one button
    fireEvent.click(within(form).getByRole('button'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === API).length).toBe(2));
  });

  it('a PEM upload without text is stopped in the browser with an inline message', async () => {
    const { calls } = renderSignedIn(PATH, makeBootstrap(), { [`GET ${API}`]: { body: view() } });
    const form = await screen.findByRole('form', { name: 'Upload a signing certificate' });
    fireEvent.click(within(form).getByLabelText(/PEM text/));
    fireEvent.click(within(form).getByRole('button', { name: 'Upload certificate' }));
    expect(await within(form).findByText('Paste the private key and the certificates')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('lists the certificates with their state; removing one asks first', async () => {
    const certificates = [
      cert({
        id: '1b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11',
        subject: 'Acme 2027',
        state: 'scheduled',
        activeFrom: '2026-12-31T00:00:00.000Z',
      }),
      cert({ state: 'active' }),
    ];
    const { calls } = renderSignedIn(PATH, makeBootstrap(), {
      [`GET ${API}`]: { body: view({ certificates }) },
      [`DELETE ${API}/certificates/1b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11`]: { body: view({ certificates: [cert()] }) },
    });
    expect(await screen.findByText('Scheduled')).toBeTruthy();
    expect(screen.getByText('Seals now')).toBeTruthy();
    expect(screen.getByText(/Your certificate\s/).textContent).toContain('Acme Insurance Signing');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Acme 2027' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('its key is erased');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove certificate' }));
    await waitFor(() => expect(screen.queryByText('Acme 2027')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it('is for admins: a supervisor does not get the page', async () => {
    renderSignedIn(PATH, makeBootstrap({ role: 'supervisor' }), { [`GET ${API}`]: { body: view() } });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Upload a signing certificate' })).toBeNull());
    expect(screen.queryByText('Your certificates')).toBeNull();
  });
});
