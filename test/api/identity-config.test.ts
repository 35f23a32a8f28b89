import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config';

// Which sign-in providers a server uses, decided by its environment alone.

const production = {
  NODE_ENV: 'production',
  SESSION_SECRET: 's'.repeat(32),
  ENCRYPTION_KEY: 'e'.repeat(32),
  PUBLIC_URL: 'https://console.example.com',
  DATABASE_URL: 'postgres://db/x',
};

describe('sign-in provider configuration', () => {
  it('development with no provider configured mounts the development identity provider for both buttons', () => {
    const config = loadConfig({
      NODE_ENV: 'development',
      SESSION_SECRET: 's'.repeat(32),
      ENCRYPTION_KEY: 'e'.repeat(32),
      PORT: '4000',
    });
    expect(config.devIdp).toBe(true);
    expect(config.signIn.google).toMatchObject({ issuer: 'http://localhost:4000/dev-idp', clientId: 'switchboard-google' });
    expect(config.signIn.azure).toMatchObject({ issuer: 'http://localhost:4000/dev-idp', clientId: 'switchboard-azure' });
  });

  it('production never mounts the development identity provider', () => {
    const config = loadConfig(production);
    expect(config.devIdp).toBe(false);
    expect(config.signIn).toEqual({ google: null, azure: null });
    expect(() => loadConfig({ ...production, DEV_IDP: 'true' })).toThrow(ConfigError);
  });

  it('real providers are configured by issuer, client id and secret', () => {
    const config = loadConfig({
      ...production,
      GOOGLE_CLIENT_ID: 'g-id',
      GOOGLE_CLIENT_SECRET: 'g-secret',
      AZURE_CLIENT_ID: 'a-id',
      AZURE_CLIENT_SECRET: 'a-secret',
      AZURE_ISSUER: 'https://login.microsoftonline.com/tenant-id/v2.0',
    });
    expect(config.signIn.google).toEqual({ issuer: 'https://accounts.google.com', clientId: 'g-id', clientSecret: 'g-secret' });
    expect(config.signIn.azure).toEqual({
      issuer: 'https://login.microsoftonline.com/tenant-id/v2.0',
      clientId: 'a-id',
      clientSecret: 'a-secret',
    });
    expect(() => loadConfig({ ...production, GOOGLE_CLIENT_ID: 'g-id' })).toThrow(/GOOGLE_CLIENT_SECRET/);
  });
});
