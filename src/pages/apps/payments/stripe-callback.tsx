import { useEffect, useRef, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { StripeConnection } from '../../../../api/contract/apps/payments';
import { errorMessage } from '../../../api/client';
import { useApi } from '../../../api/hooks';
import { Card } from '../../../ui/Card';
import { LoadingPanel } from '../../../ui/Spinner';
import { ConfigPage } from '../_frame/ConfigNav';

/** Where Stripe sends the admin back: the code and state go to the server, once. */
export default function StripeCallback({ app }: { app: AppDefinition }) {
  const api = useApi();
  const search = useSearch();
  const [outcome, setOutcome] = useState<{ ok: true; connection: StripeConnection } | { ok: false; message: string } | null>(
    null,
  );
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const params = new URLSearchParams(search);
    const body = Object.fromEntries(
      Object.entries({
        state: params.get('state') ?? '',
        code: params.get('code') ?? undefined,
        error: params.get('error') ?? undefined,
        errorDescription: params.get('error_description') ?? undefined,
      }).filter(([, v]) => v !== undefined),
    );
    api
      .post<StripeConnection>('/payments/stripe/callback', body)
      .then((connection) => setOutcome({ ok: true, connection }))
      .catch((err) => setOutcome({ ok: false, message: errorMessage(err, 'Stripe could not be connected.') }));
    // the code is single use: never leave it in the address bar or the history
    window.history.replaceState(null, '', window.location.pathname);
  }, [api, search]);
  return (
    <ConfigPage app={app} title="Stripe">
      {!outcome ? (
        <LoadingPanel label="Connecting your Stripe account" />
      ) : outcome.ok ? (
        <Card title="Stripe is connected">
          <p role="status">
            {outcome.connection.name ?? 'Your Stripe account'} (<code>{outcome.connection.accountId}</code>) is connected. You can
            now add products and request payments.
          </p>
          <p>
            <Link href="/products">Go to the Product Catalog</Link> · <Link href="/settings/stripe">See the connection</Link>
          </p>
        </Card>
      ) : (
        <Card title="Stripe was not connected">
          <p role="alert">{outcome.message}</p>
          <p>Nothing was changed.</p>
          <p>
            <Link href="/settings/stripe">Back to Stripe settings</Link>
          </p>
        </Card>
      )}
    </ConfigPage>
  );
}
