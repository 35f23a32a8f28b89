import * as v from 'valibot';
import { AssignableRoleSchema, EmailSchema } from './common';

/** A pending invitation; it is shown as 'Expired' once expiresAt has passed. */
export const InvitationSchema = v.object({
  id: v.string(),
  email: v.string(),
  role: AssignableRoleSchema,
  expiresAt: v.string(),
});
export type Invitation = v.InferOutput<typeof InvitationSchema>;
export const InvitationListSchema = v.array(InvitationSchema);

/** POST /invitations: 'Add an Administrator'; the role defaults to admin. */
export const InvitationCreateSchema = v.object({
  email: EmailSchema,
  role: v.optional(AssignableRoleSchema, 'admin'),
});
export type InvitationCreate = v.InferInput<typeof InvitationCreateSchema>;

/** DELETE /invitations: revoke by e-mail. */
export const InvitationRevokeSchema = v.object({ email: EmailSchema });

export const isExpired = (invitation: Pick<Invitation, 'expiresAt'>, now = Date.now()) => new Date(invitation.expiresAt).getTime() <= now;
