import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { StripeConnectAnswer, StripeConnection } from '../../../../api/contract/apps/payments';
import { errorMessage } from '../../../api/client';
import { useApi } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { formatDateTime } from '../../../ui/format';
import { ConfigPage } from '../_frame/ConfigNav';
import { PaymentsState, useStripeConnection } from './connection';
import { StripeStandInNotice } from '../_frame/subscribe';

function Connected({ connection, onChange }: { connection: StripeConnection; onChange: () => void }) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card title="Connected Stripe account">
      <dl className="task-facts" aria-label="Connected Stripe account">
        <div>
          <dt>Name</dt>
          <dd>{connection.name ?? '—'}</dd>
        </div>
        <div>
          <dt>Account ID</dt>
          <dd>
            <code>{connection.accountId}</code>
          </dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>{connection.country ?? '—'}</dd>
        </div>
        <div>
          <dt>Default currency</dt>
          <dd>{connection.defaultCurrency?.toUpperCase() ?? '—'}</dd>
        </div>
        <div>
          <dt>Charges enabled</dt>
          <dd>{connection.chargesEnabled ? 'Yes' : 'No: finish your account on Stripe before customers can pay'}</dd>
        </div>
        <div>
          <dt>Connected</dt>
          <dd>{connection.connectedAt ? formatDateTime(connection.connectedAt) : '—'}</dd>
        </div>
      </dl>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Disconnect
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Disconnect Stripe?"
        description="We lose access to your Stripe account: no new payment requests, no catalog, no refunds from here until you connect again. Payments already made stay on your Stripe account."
        confirmLabel="Disconnect"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            await api.delete('/payments/stripe');
            toast.success('Stripe disconnected');
            onChange();
          } catch (err) {
            toast.error('Stripe was not disconnected', errorMessage(err), err);
            throw err;
          }
        }}
      />
    </Card>
  );
}

export default function StripeSettings({ app }: { app: AppDefinition }) {
  const api = useApi();
  const connection = useStripeConnection();
  const connect = async () => {
    try {
      const { url } = await api.create<StripeConnectAnswer>('/payments/stripe/connect');
      window.location.assign(url);
    } catch (err) {
      toast.error('Stripe could not be opened', errorMessage(err), err);
      throw err;
    }
  };
  return (
    <ConfigPage
      app={app}
      title="Stripe"
      lead="Customers pay you through your own Stripe account: the money goes straight to it, and your product catalog lives there."
    >
      <StripeStandInNotice />
      <QueryState query={connection}>
        {() =>
          connection.data &&
          (connection.data.connected ? (
            <Connected connection={connection.data} onChange={connection.reload} />
          ) : connection.data.configured ? (
            <Card title="Connect your Stripe account">
              <p>
                Select <strong>Connect with Stripe</strong>, sign in to Stripe (or create an account) and approve the connection.
                You come back here when it is done. We keep only your Stripe account ID.
              </p>
              <Button variant="primary" onClick={connect} successLabel="Opening Stripe…">
                Connect with Stripe
              </Button>
            </Card>
          ) : (
            // nothing here can change it: the state, and no step that is not there
            <PaymentsState connection={connection.data} />
          ))
        }
      </QueryState>
    </ConfigPage>
  );
}
