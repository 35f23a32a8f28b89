import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { ActionResult, RunActionBody } from '../../contract/platform';
import type { Caller } from './caller';

/** What one action of an app gets: its typed input, the task it acts on, who runs it. */
export type ActionCall = {
  input: RunActionBody['input'];
  /** set when the action names `onTask` (the registry checked it is there) */
  taskId: string;
  caller: Caller;
  /** the agent the task is for: the console's user, or what an API caller named */
  agent: string | undefined;
};

export type ActionDef = {
  /** the action acts on a task the agent started before; the hint says which (`Send a passcode first`) */
  onTask?: string;
  run: (deps: Deps, accountId: string, call: ActionCall) => Promise<ActionResult>;
};

/**
 * An app module's `runAction`, from the app's actions by key: 404 NOT_FOUND for a key it does not
 * have, 400 VALIDATION_FAILED on `taskId` for an action on a task that names none. Each action
 * parses its input (`parseActionInput`) and calls the same service function as /api/v1.
 */
export function runActions(actions: Record<string, ActionDef>) {
  return async (deps: Deps, accountId: string, key: string, body: RunActionBody, caller: Caller): Promise<ActionResult> => {
    const action = Object.hasOwn(actions, key) ? actions[key] : undefined;
    if (!action) throw new ApiError(404, 'NOT_FOUND', 'This app has no such action.');
    if (action.onTask && !body.taskId)
      throw new ApiError(400, 'VALIDATION_FAILED', `taskId: ${action.onTask}`, { taskId: action.onTask });
    const agent = caller.kind === 'api' ? body.input.agent : caller.label;
    return action.run(deps, accountId, { input: body.input, taskId: body.taskId ?? '', caller, agent });
  };
}
