import type * as v from 'valibot';
import type { Context } from 'hono';
import type { Deps } from '../../deps';
import { apiCaller, type Caller } from './caller';
import { requestOrigin } from './request';
import type { V1Env } from './v1-guards';
import type { V1Operation } from './v1-spec';

// The three kinds of /api/v1 operation every app has: start a task from a body, get a task by
// id, act on a task by id (cancel, resend). Each app describes its operations; what runs is here.

export const V1_NOT_FOUND = { status: 404, code: 'NOT_FOUND' } as const;
/** What starting a task of a billed app may answer: the free tier is used up, or the app is not activated. */
export const V1_APP_GATE = [
  { status: 402, code: 'FREE_TIER_EXHAUSTED' },
  { status: 403, code: 'APP_NOT_ACTIVE' },
] as const;

/** What any operation that texts the customer may answer (api/apps/platform/sms.ts and the SMS guard). */
export const V1_SMS_SEND = [
  { status: 409, code: 'SMS_NOT_CONFIGURED' },
  { status: 403, code: 'COUNTRY_NOT_ALLOWED' },
  { status: 422, code: 'NUMBER_TYPE_NOT_ALLOWED' },
  { status: 429, code: 'SMS_PUMPING_SUSPECTED' },
] as const;

/** Who made a /api/v1 call: the agent the body names (the API key when none), from where. */
export function v1Caller(c: Context<V1Env>, agent: string | null | undefined): Caller {
  const origin = requestOrigin(c as never);
  return apiCaller(agent, origin.ip, origin.userAgent);
}

type Described = Pick<V1Operation, 'path' | 'operationId' | 'summary' | 'description' | 'tag' | 'params' | 'answer'>;
type WithBody = Described & { body: v.GenericSchema; errors: V1Operation['errors'] };
type AgentBody = { agent?: string | null };

/** POST that starts a task from its body: 201 with the task. `params` are the path's (a form's id). */
export function v1Start<B extends AgentBody>(
  op: WithBody,
  start: (deps: Deps, accountId: string, input: B, caller: Caller, params: Record<string, string>) => Promise<unknown>,
): V1Operation {
  return {
    method: 'post',
    statuses: [201],
    ...op,
    async handler(c, { params, body }) {
      const input = body as B;
      return { status: 201, answer: await start(c.var.deps, c.var.apiAccountId, input, v1Caller(c, input.agent), params) };
    },
  };
}

/** GET …/:id: a task of the calling account; 404 NOT_FOUND when it has none with this id. */
export function v1Get(op: Described, get: (deps: Deps, accountId: string, id: string) => Promise<unknown>): V1Operation {
  return {
    method: 'get',
    statuses: [200],
    errors: [V1_NOT_FOUND],
    ...op,
    async handler(c, { params }) {
      return { status: 200, answer: await get(c.var.deps, c.var.apiAccountId, params.id!) };
    },
  };
}

/** POST …/:id/<verb> with an `{ agent }` body: acts on one task of the calling account. */
export function v1TaskAction(
  op: WithBody,
  act: (deps: Deps, accountId: string, id: string, caller: Caller) => Promise<unknown>,
): V1Operation {
  return {
    method: 'post',
    statuses: [200],
    ...op,
    async handler(c, { params, body }) {
      return {
        status: 200,
        answer: await act(c.var.deps, c.var.apiAccountId, params.id!, v1Caller(c, (body as AgentBody).agent)),
      };
    },
  };
}
