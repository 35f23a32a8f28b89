import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { OktaSsoSchema, oktaDiscoveryUrl } from '../../../api/contract/sso';

const tenantOf = (tenant: string) => {
  const parsed = v.safeParse(OktaSsoSchema, { tenant, domain: 'acme.test', clientId: 'c', clientSecret: 's' });
  return parsed.success ? parsed.output.tenant : parsed.issues[0]!.message;
};

describe('Okta tenant', () => {
  it('reads an organisation name, a domain or its https URL as the Okta domain', () => {
    expect(tenantOf('acme')).toBe('acme.okta.com');
    expect(tenantOf('Acme.Okta.com')).toBe('acme.okta.com');
    expect(tenantOf('https://acme.okta.com/')).toBe('acme.okta.com');
    expect(tenantOf('login.acme.com')).toBe('login.acme.com');
  });

  it('derives the discovery document of the org authorization server', () => {
    expect(oktaDiscoveryUrl('acme.okta.com')).toBe('https://acme.okta.com/.well-known/openid-configuration');
    expect(oktaDiscoveryUrl('http://127.0.0.1:4000/dev-idp')).toBe(
      'http://127.0.0.1:4000/dev-idp/.well-known/openid-configuration',
    );
  });

  it('refuses what is not a domain', () => {
    expect(tenantOf('acme okta')).toBe('Tenant must be your Okta domain, e.g. acme.okta.com');
    expect(tenantOf(' ')).toBe('Tenant is required');
  });
});
