import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { DEV_OUTBOX_PROVIDER, smsSaveBodySchema, type SmsSettings } from '../../../../api/contract/sms';
import { useApi, useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { IntegrationCard, sortIntegrations } from '../../../ui/IntegrationCard';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';
import { FraudGuard } from './FraudGuard';

type Provider = {
  id: 'twilio' | 'cisco' | 'zoom' | typeof DEV_OUTBOX_PROVIDER;
  title: string;
  logo: string;
  description: string;
  disabledReason?: string;
};

const DEV_OUTBOX: Provider = {
  id: DEV_OUTBOX_PROVIDER,
  title: 'Development outbox',
  logo: 'Dev',
  description:
    'Keeps messages in the console instead of sending them, so every app works without a provider. Outside production only.',
};

const PROVIDERS: Provider[] = [
  { id: 'twilio', title: 'Twilio', logo: 'Tw', description: 'Send passcodes and links from your own Twilio number.' },
  {
    id: 'cisco',
    title: 'Cisco SMS',
    logo: 'Ci',
    description: 'Send SMS through Webex Connect.',
    disabledReason: 'Contact Journey to enable Cisco SMS',
  },
  {
    id: 'zoom',
    title: 'Zoom SMS',
    logo: 'Zm',
    description: 'Send SMS from your Zoom Phone numbers.',
    disabledReason: 'Contact Journey to enable Zoom SMS',
  },
];

function TwilioDialog({
  open,
  settings,
  onClose,
  onSaved,
}: {
  open: boolean;
  settings: SmsSettings | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const managing = settings?.provider === 'twilio';
  const [form, setForm] = useState({
    accountSid: settings?.twilio?.accountSid ?? '',
    authToken: '',
    phoneNumber: settings?.twilio?.phoneNumber ?? '',
  });
  const formErrors = useFormErrors();
  const fields = formErrors.errors;
  const [failure, setFailure] = useState<string | null>(null);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const save = async () => {
    setFailure(null);
    const body = { provider: 'twilio', twilio: form };
    const checked = check(smsSaveBodySchema(managing), body);
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      await api.post('/sms', checked.value);
    } catch (error) {
      const invalid = formErrors.fromAnswer(error);
      if (invalid) throw invalid;
      setFailure(errorMessage(error));
      throw error;
    }
    toast.success('Twilio has been configured');
    onSaved();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save().catch(() => {});
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={managing ? 'Manage Twilio' : 'Connect Twilio'}
      description="Your credentials are checked with Twilio before they are saved. The Auth Token is stored encrypted and never shown again."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
            Save
          </Button>
        </>
      }
    >
      <form className="form" onSubmit={submit} noValidate ref={formErrors.ref}>
        <TextField
          label="Account SID"
          required
          autoComplete="off"
          value={form.accountSid}
          onChange={set('accountSid')}
          error={fields['twilio.accountSid']}
          placeholder="AC…"
        />
        <TextField
          label="Auth Token"
          required={!managing}
          type="password"
          autoComplete="new-password"
          value={form.authToken}
          onChange={set('authToken')}
          error={fields['twilio.authToken']}
          hint={managing ? 'Leave blank to keep the current value' : undefined}
        />
        <TextField
          label="Phone number"
          required
          type="tel"
          value={form.phoneNumber}
          onChange={set('phoneNumber')}
          error={fields['twilio.phoneNumber']}
          placeholder="+14155550100"
          hint="In E.164 format: a plus, the country code and the number."
        />
        {failure ? (
          <p className="notice notice-error" role="alert">
            {failure}
          </p>
        ) : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

export default function SmsConfigurationSettings() {
  const api = useApi();
  const [, navigate] = useLocation();
  const query = useQuery('sms', (a, signal) => a.get<SmsSettings>('/sms', { signal }));
  const [editing, setEditing] = useState(false);
  const connected = (id: Provider['id']) => query.data?.provider === id;
  // the server says where the development outbox may be offered (never in production)
  const providers = query.data?.devOutboxAvailable ? [PROVIDERS[0]!, DEV_OUTBOX, ...PROVIDERS.slice(1)] : PROVIDERS;
  const title = (id: Provider['id']) => (id === DEV_OUTBOX_PROVIDER ? 'Development outbox' : 'Twilio');

  const chooseDevOutbox = async () => {
    try {
      await api.post<SmsSettings>('/sms', { provider: DEV_OUTBOX_PROVIDER });
      toast.success('Development outbox has been configured');
      query.reload();
    } catch (error) {
      toast.error('The development outbox could not be configured', errorMessage(error), error);
    }
  };

  return (
    <div className="page">
      <div>
        <h1 className="page-title">SMS Configuration</h1>
        <p className="muted page-lead">The provider that sends your customers their passcodes and links by SMS.</p>
      </div>
      <QueryState query={query}>
        {() => (
          <div className="integration-grid">
            {sortIntegrations(providers, (p) => connected(p.id)).map((p) => (
              <IntegrationCard
                key={p.id}
                id={p.id}
                title={p.title}
                logo={p.logo}
                description={
                  connected(p.id) && p.id === 'twilio' && query.data?.twilio
                    ? `Sending from ${query.data.twilio.phoneNumber} (account ${query.data.twilio.accountSid})`
                    : p.description
                }
                status={
                  p.id === DEV_OUTBOX_PROVIDER && connected(p.id) ? (
                    <p>
                      <Link href="~/dev/sms-outbox">Open the development outbox</Link>
                    </p>
                  ) : undefined
                }
                connected={connected(p.id)}
                disabled={Boolean(p.disabledReason)}
                disabledReason={p.disabledReason}
                onConnect={() => (p.id === DEV_OUTBOX_PROVIDER ? void chooseDevOutbox() : setEditing(true))}
                onManage={() => (p.id === DEV_OUTBOX_PROVIDER ? navigate('~/dev/sms-outbox') : setEditing(true))}
                onDisconnect={async () => {
                  await api.delete('/sms');
                  toast.success(`${title(p.id)} has been disconnected`);
                  query.reload();
                }}
              />
            ))}
          </div>
        )}
      </QueryState>
      {query.data?.provider ? <FraudGuard /> : null}
      {editing ? (
        <TwilioDialog
          open
          settings={query.data}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            query.reload();
          }}
        />
      ) : null}
    </div>
  );
}
