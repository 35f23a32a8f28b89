import type { TokenResult } from './host';
import { GENERIC_ERROR } from './outcome';

/** Back-off between sign-in attempts (SPEC §4, §9): 250 ms, doubling, the last wait 16 s. */
export const RETRY_FIRST_MS = 250;
export const RETRY_LAST_MS = 16_000;

export type Sleep = (ms: number) => Promise<void>;
export const defaultSleep: Sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a desktop host's sign-in attempt until it gives an answer. `attempt` answers a result when
 * it is final (a session, the unauthorized card, a refusal) or null when it is worth another go
 * (no token yet, no answer, a server fault). Waits 250 ms, 500 ms, 1 s ... 16 s between attempts,
 * then gives up with 'An error occurred'. Zoom and Webex both sign in through this.
 */
export async function signInWithRetry(
  attempt: () => Promise<TokenResult | null>,
  sleep: Sleep = defaultSleep,
): Promise<TokenResult> {
  for (let wait = RETRY_FIRST_MS; ; wait *= 2) {
    const result = await attempt();
    if (result) return result;
    if (wait > RETRY_LAST_MS) return { outcome: 'error', message: GENERIC_ERROR };
    await sleep(wait);
  }
}
