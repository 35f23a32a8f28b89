import { useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';

// One card for every integration (SMS providers, logging destinations, SSO providers): the
// same states and actions everywhere, so an admin learns them once.

export type IntegrationCardProps = {
  id: string;
  title: string;
  description?: ReactNode;
  logo?: ReactNode;
  connected: boolean;
  /** shown greyed out with the reason; no actions */
  disabled?: boolean;
  disabledReason?: string;
  /** opens the configuration form for a card that is not connected yet */
  onConnect(): void;
  /** opens the configuration form of a connected card */
  onManage(): void;
  /** asked for only after the admin confirms */
  onDisconnect(): Promise<void>;
};

/** Connected cards first; otherwise the given order is kept (Array.prototype.sort is stable). */
export function sortIntegrations<T>(items: readonly T[], isConnected: (item: T) => boolean): T[] {
  return [...items].sort((a, b) => Number(isConnected(b)) - Number(isConnected(a)));
}

const card: CSSProperties = {
  display: 'flex',
  flexDirection: 'column',
  gap: 12,
  padding: 16,
  border: '1px solid var(--border, #e5e7eb)',
  borderRadius: 12,
  background: 'var(--surface, #fff)',
  minWidth: 0,
};
const row: CSSProperties = { display: 'flex', alignItems: 'center', gap: 12 };
const actions: CSSProperties = { display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 'auto' };
const badge = (on: boolean): CSSProperties => ({
  fontSize: 12,
  fontWeight: 600,
  padding: '2px 8px',
  borderRadius: 999,
  color: on ? '#166534' : '#374151',
  background: on ? '#dcfce7' : '#f3f4f6',
});
const button = (kind: 'primary' | 'secondary' | 'danger'): CSSProperties => ({
  padding: '6px 12px',
  borderRadius: 8,
  border: kind === 'secondary' ? '1px solid var(--border, #d1d5db)' : '1px solid transparent',
  background: kind === 'primary' ? 'var(--accent, #2563eb)' : kind === 'danger' ? '#dc2626' : 'transparent',
  color: kind === 'secondary' ? 'inherit' : '#fff',
  font: 'inherit',
  cursor: 'pointer',
});

export function IntegrationCard(props: IntegrationCardProps) {
  const { id, title, description, logo, connected, disabled, disabledReason, onConnect, onManage, onDisconnect } = props;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const disconnectRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  const disconnect = async () => {
    setBusy(true);
    setError(null);
    try {
      await onDisconnect();
      setConfirming(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not disconnect');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      style={{ ...card, opacity: disabled ? 0.6 : 1 }}
      aria-labelledby={titleId}
      aria-disabled={disabled || undefined}
      data-integration={id}
      data-connected={connected ? 'true' : 'false'}
    >
      <div style={row}>
        {logo ? <div aria-hidden="true" style={{ width: 40, height: 40, display: 'grid', placeItems: 'center', flex: 'none' }}>{logo}</div> : null}
        <h3 id={titleId} style={{ margin: 0, fontSize: 16, flex: 1 }}>{title}</h3>
        {connected ? <span style={badge(true)}>Connected</span> : null}
      </div>
      {description ? <div style={{ color: 'var(--muted, #6b7280)', fontSize: 14 }}>{description}</div> : null}
      {disabled ? (
        <p style={{ margin: 0, fontSize: 14, color: 'var(--muted, #6b7280)' }}>{disabledReason}</p>
      ) : confirming ? (
        <div role="group" aria-label={`Disconnect ${title}?`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) {
              setConfirming(false);
              disconnectRef.current?.focus();
            }
          }}
        >
          <p style={{ margin: 0, fontSize: 14 }}>Disconnect {title}? Its settings will be removed.</p>
          {error ? <p role="alert" style={{ margin: 0, fontSize: 14, color: '#dc2626' }}>{error}</p> : null}
          <div style={actions}>
            <button type="button" ref={cancelRef} style={button('secondary')} disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" style={button('danger')} disabled={busy} aria-busy={busy || undefined} onClick={disconnect}>
              {busy ? 'Disconnecting…' : 'Yes, disconnect'}
            </button>
          </div>
        </div>
      ) : (
        <div style={actions}>
          {connected ? (
            <>
              <button type="button" style={button('secondary')} onClick={onManage} aria-label={`Manage ${title}`}>
                Manage
              </button>
              <button type="button" ref={disconnectRef} style={button('secondary')} onClick={() => setConfirming(true)} aria-label={`Disconnect ${title}`}>
                Disconnect
              </button>
            </>
          ) : (
            <button type="button" style={button('primary')} onClick={onConnect} aria-label={`Connect ${title}`}>
              Connect
            </button>
          )}
        </div>
      )}
    </section>
  );
}
