import type { Actor } from '../../audit';
import type { Session } from '../../auth/context';
import { actorOf } from '../../audit';

/**
 * Who runs an app action: a customer's system through /api/v1 (the secret key), an agent
 * session, or an admin in the console. Every service function takes one, so the audit entry and
 * the task timeline name the same person whichever door the call came through.
 */
export type Caller = {
  kind: 'api' | 'agent' | 'admin';
  /** the audit log's actor */
  actor: Actor;
  /** the timeline's actor: the agent's e-mail or id, "API key", or the admin's name */
  label: string;
  ip: string | null;
  userAgent: string | null;
};

export const API_KEY_ACTOR = 'API key';

/** A v1 call: the `agent` it names, if any, is who acted; otherwise the API key. */
export function apiCaller(agent: string | null | undefined, ip: string | null, userAgent: string | null): Caller {
  const label = agent?.trim() || API_KEY_ACTOR;
  return { kind: 'api', actor: { id: null, firstName: label, lastName: '' }, label, ip, userAgent };
}

export function sessionCaller(session: Session, ip: string | null, userAgent: string | null): Caller {
  if (session.role === 'agent') {
    // agents are not admins: the audit entry names them, with no admin id
    return { kind: 'agent', actor: { id: null, firstName: session.email, lastName: '' }, label: session.email, ip, userAgent };
  }
  const name = `${session.firstName} ${session.lastName}`.trim() || session.email;
  return { kind: 'admin', actor: actorOf(session), label: name, ip, userAgent };
}

/** The customer on their own page: every timeline says "By customer" for what they did. */
export function customerCaller(ip: string | null = null, userAgent: string | null = null): Caller {
  return { kind: 'api', actor: { id: null, firstName: 'Customer', lastName: '' }, label: 'Customer', ip, userAgent };
}
