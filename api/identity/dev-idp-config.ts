import { devIdpClient, DEV_IDP_PATH, type Config } from '../config';
import { redirectUriFor } from './flows';
import type { DevIdp, DevIdpOptions, DevIdpUser } from './dev-idp';
import { mountMatcher } from './dev-idp-mount';

/**
 * The development provider as the server mounts it: the Google-type and Microsoft-type clients
 * the config points at, plus an SSO client a developer can enter on the Single Sign-On screen.
 * `users` are the people it offers (the server passes the demo admins: the seed sits above identity).
 */
export function devIdpOptions(config: Config, users: DevIdpUser[]): DevIdpOptions {
  const sso = devIdpClient(config.sessionSecret, config.publicUrl, 'sso');
  return {
    issuer: `${config.publicUrl}${DEV_IDP_PATH}`,
    clients: [
      {
        ...devIdpClient(config.sessionSecret, config.publicUrl, 'google'),
        redirectUris: [redirectUriFor(config.publicUrl, 'google')],
      },
      {
        ...devIdpClient(config.sessionSecret, config.publicUrl, 'azure'),
        redirectUris: [redirectUriFor(config.publicUrl, 'azure')],
      },
      { ...sso, redirectUris: [redirectUriFor(config.publicUrl, 'sso')] },
    ],
    users,
    proxy: config.trustProxy,
  };
}

/** What a developer types into the Single Sign-On screen to try SSO against the development provider. */
export function devSsoClient(config: Config) {
  const sso = devIdpClient(config.sessionSecret, config.publicUrl, 'sso');
  return {
    discoveryUrl: `${sso.issuer}/.well-known/openid-configuration`,
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
  };
}

/**
 * The development provider, built on its first request: oidc-provider and its key pair cost a
 * few hundred milliseconds of every start, and most starts never sign in through it.
 */
export function lazyDevIdp(options: DevIdpOptions): DevIdp {
  const mountPath = new URL(options.issuer).pathname.replace(/\/$/, '');
  let built: Promise<DevIdp> | null = null;
  return {
    issuer: options.issuer,
    mountPath,
    matches: mountMatcher(mountPath),
    handle(req, res) {
      built ??= import('./dev-idp').then((m) => m.createDevIdp(options));
      built
        .then(
          (idp) => idp.handle(req, res),
          (err: unknown) => {
            built = null; // a later request tries again
            throw err;
          },
        )
        .catch((err: unknown) => {
          console.error('The development identity provider could not start:', err);
          if (!res.headersSent) res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('The development identity provider could not start; see the server log.');
        });
    },
  };
}
