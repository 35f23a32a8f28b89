import { useId, useState, type ReactNode } from 'react';
import { Button } from './Button';
import { ConfirmDialog } from './ConfirmDialog';

// One card for every integration (SMS providers, logging destinations, SSO providers): the
// same states and actions everywhere, so an admin learns them once.

export type IntegrationCardProps = {
  id: string;
  title: string;
  description?: ReactNode;
  logo?: ReactNode;
  /** shown under the description, e.g. a delivery problem and its action */
  status?: ReactNode;
  connected: boolean;
  /** shown greyed out with the reason; no actions */
  disabled?: boolean;
  disabledReason?: string;
  /** opens the configuration form for a card that is not connected yet */
  onConnect(): void;
  /** opens the configuration form of a connected card */
  onManage(): void;
  /** called only after the admin confirms; a rejection keeps the confirmation open */
  onDisconnect(): Promise<void>;
};

/** Connected cards first; otherwise the given order is kept (Array.prototype.sort is stable). */
export function sortIntegrations<T>(items: readonly T[], isConnected: (item: T) => boolean): T[] {
  return [...items].sort((a, b) => Number(isConnected(b)) - Number(isConnected(a)));
}

export function IntegrationCard(props: IntegrationCardProps) {
  const { id, title, description, logo, status, connected, disabled, disabledReason, onConnect, onManage, onDisconnect } = props;
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  return (
    <section
      className={['card', 'integration-card', disabled && 'integration-card-disabled'].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      aria-disabled={disabled || undefined}
      data-integration={id}
      data-connected={connected ? 'true' : 'false'}
    >
      <header className="integration-card-header">
        {logo ? (
          <div className="integration-card-logo" aria-hidden="true">
            {logo}
          </div>
        ) : null}
        <h2 id={titleId} className="card-title integration-card-title">
          {title}
        </h2>
        {connected ? <span className="badge badge-connected">Connected</span> : null}
      </header>
      {description ? <div className="muted integration-card-description">{description}</div> : null}
      {status ?? null}
      {disabled ? (
        <p className="muted integration-card-reason">{disabledReason}</p>
      ) : (
        <div className="integration-card-actions">
          {connected ? (
            <>
              <Button size="sm" onClick={onManage} aria-label={`Manage ${title}`}>
                Manage
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setError(null);
                  setConfirming(true);
                }}
                aria-label={`Disconnect ${title}`}
              >
                Disconnect
              </Button>
            </>
          ) : (
            <Button size="sm" variant="primary" onClick={onConnect} aria-label={`Connect ${title}`}>
              Connect
            </Button>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Disconnect ${title}?`}
        description={
          <>
            {`${title} will stop working for this account and its saved settings are removed.`}
            {error ? (
              <span role="alert" className="field-error" style={{ display: 'block', marginTop: 8 }}>
                {error}
              </span>
            ) : null}
          </>
        }
        confirmLabel="Disconnect"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            await onDisconnect();
          } catch (err) {
            setError(err instanceof Error ? err.message : 'Could not disconnect');
            throw err;
          }
        }}
      />
    </section>
  );
}
