import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StorageView } from '../../api/contract/storage';
import { makeBootstrap, renderSignedIn } from './helpers';

const DATABASE: StorageView = {
  backend: 'database',
  s3: null,
  retention: { 'idv.images': null, 'idv.data': null, 'document-signature.completed': null },
  updatedAt: null,
};
const S3: StorageView = {
  backend: 's3',
  s3: {
    endpoint: 'https://s3.eu-west-1.amazonaws.com',
    region: 'eu-west-1',
    bucket: 'acme-files',
    accessKeyId: 'AKIAEXAMPLE',
    pathStyle: false,
    secretStored: true,
  },
  retention: { 'idv.images': 30, 'idv.data': null, 'document-signature.completed': 365 },
  updatedAt: '2026-11-20T10:00:00.000Z',
};
const PAGE = '/document-signature/settings/storage';
// after a refused save the button flashes "Not saved" for a moment
const saveButton = () => screen.getByRole('button', { name: /Save|Not saved/ });

describe('Storage settings page', () => {
  it('shows the saved S3 settings with the secret as stored, never its value', async () => {
    renderSignedIn(PAGE, makeBootstrap(), { 'GET /api/storage': { body: S3 } });
    expect(await screen.findByDisplayValue('acme-files')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Document Signature: Storage');
    expect((screen.getByRole('radio', { name: /S3-compatible bucket/ }) as HTMLInputElement).checked).toBe(true);
    const secret = screen.getByLabelText(/Secret access key/) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe('Stored (leave blank to keep)');
    expect(screen.getByText('Stored')).toBeTruthy();
    expect((screen.getByLabelText(/Path-style addressing/) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText(/Identity Verification images/) as HTMLInputElement).value).toBe('30');
    expect((screen.getByLabelText(/Identity Verification extracted data/) as HTMLInputElement).value).toBe('');
  });

  it('a changed bucket asks for the secret again before anything is sent', async () => {
    const { calls } = renderSignedIn(PAGE, makeBootstrap(), { 'GET /api/storage': { body: S3 } });
    fireEvent.change(await screen.findByDisplayValue('acme-files'), { target: { value: 'acme-other' } });
    expect(screen.getByText(/The stored secret belongs to the saved endpoint, bucket and access key/)).toBeTruthy();
    fireEvent.click(saveButton());
    expect(await screen.findByText('Secret access key is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('switching to S3 shows its fields, checks them inline, then saves the body the API takes', async () => {
    let sent: unknown;
    renderSignedIn(PAGE, makeBootstrap(), {
      'GET /api/storage': { body: DATABASE },
      'PUT /api/storage': async (req) => {
        sent = await req.json();
        return { body: { ...S3, s3: { ...S3.s3!, endpoint: 'https://minio.acme.test', bucket: 'acme-files', pathStyle: true } } };
      },
    });
    fireEvent.click(await screen.findByRole('radio', { name: /S3-compatible bucket/ }));
    expect(screen.getByText(/applies to new files only/)).toBeTruthy();
    fireEvent.click(saveButton());
    expect(await screen.findByText('Endpoint is required')).toBeTruthy();
    expect(screen.getByText('Bucket is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Endpoint/), { target: { value: 'https://minio.acme.test' } });
    fireEvent.change(screen.getByLabelText(/^Bucket/), { target: { value: 'acme-files' } });
    fireEvent.change(screen.getByLabelText(/^Access key ID/), { target: { value: 'AKIAEXAMPLE' } });
    fireEvent.change(screen.getByLabelText(/Secret access key/), { target: { value: 'top-secret' } });
    fireEvent.change(screen.getByLabelText(/Identity Verification images/), { target: { value: '0' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('Enter a number of days from 1 to 3650, or keep')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Identity Verification images/), { target: { value: '30' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(sent).toBeTruthy());
    expect(sent).toEqual({
      backend: 's3',
      s3: {
        endpoint: 'https://minio.acme.test',
        region: 'us-east-1',
        bucket: 'acme-files',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'top-secret',
        pathStyle: true,
      },
      retention: { 'idv.images': 30, 'idv.data': null, 'document-signature.completed': null },
    });
    expect(await screen.findByText('Storage settings have been saved')).toBeTruthy();
    expect((screen.getByLabelText(/Secret access key/) as HTMLInputElement).value).toBe('');
  });

  it('Test connection shows what failed, and server field errors land on their fields', async () => {
    renderSignedIn(PAGE, makeBootstrap(), {
      'GET /api/storage': { body: S3 },
      'POST /api/storage/test': {
        body: {
          ok: false,
          code: 'NO_SUCH_BUCKET',
          step: 'write',
          message: 'Could not write a test object: The bucket "acme-files" does not exist at s3.eu-west-1.amazonaws.com.',
        },
      },
      'PUT /api/storage': {
        status: 422,
        body: {
          code: 'TARGET_NOT_ALLOWED',
          message: '10.0.0.7 is a private address and cannot be called.',
          fields: { 's3.endpoint': '10.0.0.7 is a private address and cannot be called.' },
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    const title = await screen.findByText('No such bucket');
    const notice = title.closest('.notice') as HTMLElement;
    expect(notice.getAttribute('role')).toBe('alert');
    expect(within(notice).getByText(/does not exist/)).toBeTruthy();
    fireEvent.click(saveButton());
    expect(await screen.findAllByText('10.0.0.7 is a private address and cannot be called.')).toBeTruthy();
    expect(screen.getByLabelText(/^Endpoint/).getAttribute('aria-invalid')).toBe('true');
  });

  it('a failed load says so with Try again; account settings show the same form', async () => {
    let answer: { status: number; body: unknown } = { status: 500, body: { code: 'INTERNAL', message: 'Something broke' } };
    renderSignedIn('/settings/storage', makeBootstrap(), { 'GET /api/storage': () => answer });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    answer = { status: 200, body: DATABASE };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: /This database/ })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Storage');
  });

  it('Identity Verification has the same page in its Configuration', async () => {
    renderSignedIn(
      '/identity-verification/settings/storage',
      makeBootstrap({ apps: ['identity-verification', 'document-signature'], email: 'owner@switchboard.test' }),
      { 'GET /api/storage': { body: S3 } },
    );
    expect(await screen.findByDisplayValue('acme-files')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Identity Verification: Storage');
    expect(
      within(screen.getByRole('navigation', { name: /configuration/ }))
        .getByRole('link', { name: 'Storage' })
        .getAttribute('aria-current'),
    ).toBe('page');
  });
});
