import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { TokenAnswer } from '../../api/contract/session';
import { errorMessage } from '../api/client';
import { useApi } from '../api/hooks';
import { payloadAtom, tokenAtom } from '../state/session';
import { toast } from '../ui/Toast';

/**
 * Shown while provider staff view an account as its admin; clicking it ends ghost mode. Loaded
 * only in a ghost session (Shell), so no one else's first load carries it.
 */
export default function GhostBanner() {
  const payload = useAtomValue(payloadAtom);
  const setToken = useSetAtom(tokenAtom);
  const [, navigate] = useLocation();
  const api = useApi();
  const [busy, setBusy] = useState(false);
  if (!payload?.ghost) return null;

  const end = async () => {
    setBusy(true);
    try {
      const { token } = await api.delete<TokenAnswer>('ghost-mode');
      setToken(token);
      navigate(`/watch-tower/accounts/${encodeURIComponent(payload.acc)}`);
    } catch (error) {
      toast.error('Could not end ghost mode', errorMessage(error), error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="ghost-banner" onClick={end} disabled={busy} aria-busy={busy || undefined}>
      <strong>You're in ghost mode</strong>
      <span className="ghost-banner-action">{busy ? 'Ending ghost mode…' : 'End ghost mode'}</span>
    </button>
  );
}
