import type { Deps } from '../../deps';
import { startWebhookWorker } from '../../integrations/webhooks';
import { expireDueVerifications } from '../one-time-passcode/service';
import { expireDuePasskeyTasks } from '../passkeys/service';
import { expireDueRequests } from '../e-form/service';
import { sweepJourneys } from '../../journeys/service';

// Background work of the apps platform. Both loops read their work from the database (due
// webhook jobs, verifications past their time), so a restart loses nothing and several
// processes can run them side by side.

export const EXPIRY_SWEEP_MS = 5_000;

export function startAppJobs(deps: Deps): { stop(): Promise<void> } {
  const webhooks = startWebhookWorker(deps);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    if (stopped) return;
    running = Promise.all([
      expireDueVerifications(deps),
      expireDuePasskeyTasks(deps),
      expireDueRequests(deps),
      sweepJourneys(deps),
    ])
      .catch((err) => deps.log('verification expiry sweep failed', err))
      .finally(() => {
        if (!stopped) timer = setTimeout(sweep, EXPIRY_SWEEP_MS);
      });
  };
  sweep();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await webhooks.stop();
    },
  };
}
