import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import {
  AzureSsoSchema,
  OidcSsoSchema,
  OktaSsoSchema,
  SSO_DISABLED_REASON,
  SSO_PROVIDERS,
  SSO_PROVIDER_TITLES,
  type SsoProvider,
  type SsoSettings,
} from '../../../../api/contract/sso';
import { ApiError } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/Field';
import { IntegrationCard, sortIntegrations } from '../../../ui/IntegrationCard';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { FormError, useFormErrors } from '../../../ui/form';
import { DomainProof } from './DomainProof';

// Single sign-on: one identity provider per account. People whose e-mail is in the domain sign in
// through it; the admin group grants console access, the agent group the agent application.

type FieldName = 'tenant' | 'discoveryUrl' | 'domain' | 'clientId' | 'clientSecret' | 'adminGroupId' | 'agentGroupId';
type Form = Record<FieldName, string>;

const FIELDS: Record<SsoProvider, FieldName[]> = {
  azure: ['discoveryUrl', 'domain', 'clientId', 'clientSecret', 'adminGroupId', 'agentGroupId'],
  // Okta's discovery document is derived from the tenant: no Discovery URL to look up and paste
  okta: ['tenant', 'domain', 'clientId', 'clientSecret', 'adminGroupId', 'agentGroupId'],
  oidc: ['discoveryUrl', 'domain', 'clientId', 'clientSecret'],
};

const LABELS: Record<FieldName, string> = {
  tenant: 'Tenant',
  discoveryUrl: 'Discovery URL',
  domain: 'Domain',
  clientId: 'Client ID',
  clientSecret: 'Client Secret',
  adminGroupId: 'Admin group ID',
  agentGroupId: 'Agent group ID',
};

const HINTS: Partial<Record<FieldName, string>> = {
  tenant: 'Your Okta domain, e.g. acme.okta.com (or your custom Okta domain). Its OpenID configuration is read from there.',
  discoveryUrl: "The provider's OpenID configuration, ending in /.well-known/openid-configuration",
  domain: 'People with e-mail addresses in this domain sign in through this provider',
  adminGroupId: 'Optional. Members of this group get admin access to the console',
  agentGroupId: 'Optional. Members of this group get access to the agent application',
};

const SCHEMAS = { azure: AzureSsoSchema, okta: OktaSsoSchema, oidc: OidcSsoSchema };

const DESCRIPTIONS: Record<SsoProvider, string> = {
  azure: 'Microsoft Entra ID (Azure AD) with group-based access.',
  okta: 'Okta with group-based access.',
  oidc: 'Any OpenID Connect identity provider.',
};

/** The first message per field, as the API's VALIDATION_FAILED names them. */
function issuesByField(issues: v.BaseIssue<unknown>[]): Partial<Record<FieldName, string>> {
  const out: Partial<Record<FieldName, string>> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') as FieldName | undefined;
    if (key) out[key] ??= issue.message;
  }
  return out;
}

function emptyForm(): Form {
  return { tenant: '', discoveryUrl: '', domain: '', clientId: '', clientSecret: '', adminGroupId: '', agentGroupId: '' };
}

function formFrom(settings: SsoSettings, provider: SsoProvider): Form {
  const saved = settings[provider];
  if (!saved) return emptyForm();
  return { ...emptyForm(), ...saved, clientSecret: '' } as Form;
}

/** What a connected card shows; the oidc provider reads as issuer, domain and client id. */
function summary(settings: SsoSettings, provider: SsoProvider) {
  const rows: Array<[string, string]> =
    provider === 'oidc' && settings.oidc
      ? [
          ['Issuer', settings.oidc.issuer],
          ['Domain', settings.oidc.domain],
          ['Client ID', settings.oidc.clientId],
        ]
      : provider === 'okta' && settings.okta
        ? [
            ['Tenant', settings.okta.tenant],
            ['Domain', settings.okta.domain],
            ['Client ID', settings.okta.clientId],
          ]
        : provider === 'azure' && settings.azure
          ? [
              ['Domain', settings.azure.domain],
              ['Client ID', settings.azure.clientId],
            ]
          : [];
  return (
    <dl className="sso-summary">
      {rows.map(([k, value]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ProviderDialog({
  provider,
  settings,
  onClose,
  onSaved,
}: {
  provider: SsoProvider;
  settings: SsoSettings;
  onClose: () => void;
  onSaved: (s: SsoSettings) => void;
}) {
  const api = useApi();
  const managing = settings.provider === provider;
  const [form, setForm] = useState<Form>(() => formFrom(settings, provider));
  const formErrors = useFormErrors();
  const errors: Partial<Record<FieldName, string>> = formErrors.errors;
  const [formError, setFormError] = useState<string | null>(null);
  const title = SSO_PROVIDER_TITLES[provider];

  const save = async () => {
    const input = Object.fromEntries(FIELDS[provider].map((f) => [f, form[f]]));
    const parsed = v.safeParse(SCHEMAS[provider], input);
    const found: Partial<Record<FieldName, string>> = parsed.success ? {} : issuesByField(parsed.issues);
    // a kept secret is only for the provider it was entered for (the server holds to this too)
    const saved = settings[provider];
    const sameProvider =
      managing &&
      saved &&
      (provider === 'okta'
        ? settings.okta?.tenant === (parsed.success ? (parsed.output as { tenant: string }).tenant : form.tenant.trim())
        : saved.discoveryUrl === form.discoveryUrl.trim());
    if (!sameProvider && !form.clientSecret.trim()) found.clientSecret = 'Client Secret is required';
    setFormError(null);
    if (Object.keys(found).length) throw formErrors.invalid(found as Record<string, string>);
    formErrors.clear();
    try {
      const body = { provider, [provider]: parsed.output };
      const saved = managing ? await api.post<SsoSettings>('sso', body) : await api.create<SsoSettings>('sso', body);
      toast.success(`${title} has been configured`);
      onSaved(saved);
    } catch (e) {
      if (e instanceof ApiError && e.fields) {
        const mapped: Partial<Record<FieldName, string>> = {};
        for (const [key, message] of Object.entries(e.fields)) mapped[key.replace(`${provider}.`, '') as FieldName] = message;
        throw formErrors.invalid(mapped as Record<string, string>);
      }
      setFormError(e instanceof ApiError ? e.message : 'An unknown error occurred');
      throw e;
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save().catch(() => undefined);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`${managing ? 'Manage' : 'Connect'} ${title}`}
      description="Saving checks that the discovery document can be read."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
            Save
          </Button>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label={`${title} settings`} ref={formErrors.ref}>
        <FormError message={formError} />
        {FIELDS[provider].map((name) => (
          <TextField
            key={name}
            label={LABELS[name]}
            name={name}
            type={name === 'clientSecret' ? 'password' : name === 'discoveryUrl' ? 'url' : 'text'}
            autoComplete="off"
            required={!['adminGroupId', 'agentGroupId'].includes(name) && !(name === 'clientSecret' && managing)}
            hint={
              name === 'clientSecret' && managing
                ? 'Leave blank to keep the current secret (a new Discovery URL or Tenant needs it again)'
                : HINTS[name]
            }
            value={form[name]}
            error={errors[name]}
            onChange={(e) => {
              setForm({ ...form, [name]: e.target.value });
              formErrors.clear(name);
            }}
          />
        ))}
        <button type="submit" hidden tabIndex={-1} />
      </form>
    </Dialog>
  );
}

export default function SingleSignOnSettings() {
  const api = useApi();
  const query = useQuery('sso', (a, signal) => a.get<SsoSettings>('sso', { signal }));
  const [editing, setEditing] = useState<SsoProvider | null>(null);
  const [override, setOverride] = useState<SsoSettings | null>(null);
  const settings = override ?? query.data;

  return (
    <div className="page">
      <h1 className="page-title">Single Sign-On</h1>
      <p className="muted">
        Let your team sign in with your identity provider. One provider can be connected at a time, and it is used only once you
        have proven the domain with a DNS record.
      </p>
      {!settings ? (
        query.error ? (
          <p className="notice notice-error" role="alert">
            {query.error instanceof Error ? query.error.message : 'An unknown error occurred'}{' '}
            <button type="button" className="link-button" onClick={query.reload}>
              Try again
            </button>
          </p>
        ) : (
          <LoadingPanel label="Loading single sign-on settings" />
        )
      ) : (
        <div className="grid-2">
          {sortIntegrations(SSO_PROVIDERS, (p) => settings.provider === p).map((provider) => {
            const connected = settings.provider === provider;
            return (
              <IntegrationCard
                key={provider}
                id={provider}
                title={SSO_PROVIDER_TITLES[provider]}
                description={connected ? summary(settings, provider) : DESCRIPTIONS[provider]}
                connected={connected}
                disabled={settings.provider !== null && !connected}
                disabledReason={SSO_DISABLED_REASON}
                onConnect={() => setEditing(provider)}
                onManage={() => setEditing(provider)}
                onDisconnect={async () => {
                  const next = await api.delete<SsoSettings>('sso', { json: { provider } });
                  setOverride(next);
                  toast.success(`${SSO_PROVIDER_TITLES[provider]} has been disconnected`);
                }}
              />
            );
          })}
        </div>
      )}
      {settings && <DomainProof settings={settings} onVerified={setOverride} />}
      {editing && settings && (
        <ProviderDialog
          provider={editing}
          settings={settings}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setOverride(saved);
            setEditing(null);
          }}
        />
      )}
    </div>
  );
}
