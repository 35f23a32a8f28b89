import * as v from 'valibot';
import { AssignableRoleSchema, EmailSchema } from './common';

export const INVITATION_STATUSES = ['pending', 'accepted-elsewhere'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * An invitation: pending (shown as 'Expired' once expiresAt has passed), or accepted-elsewhere
 * when the person joined another account that invited them too (it can no longer be taken up;
 * inviting again makes it pending once more).
 */
export const InvitationSchema = v.object({
  id: v.string(),
  email: v.string(),
  role: AssignableRoleSchema,
  expiresAt: v.string(),
  status: v.picklist(INVITATION_STATUSES),
});
export type Invitation = v.InferOutput<typeof InvitationSchema>;
export const InvitationListSchema = v.array(InvitationSchema);

/** POST /invitations: 'Add an Administrator'; the role defaults to admin. */
export const InvitationCreateSchema = v.object({
  email: EmailSchema,
  role: v.optional(AssignableRoleSchema, 'admin'),
});
export type InvitationCreate = v.InferInput<typeof InvitationCreateSchema>;
/** What the server holds after validation: the role defaulted. */
export type InvitationRequest = v.InferOutput<typeof InvitationCreateSchema>;

/** DELETE /invitations: revoke by e-mail. */
export const InvitationRevokeSchema = v.object({ email: EmailSchema });

export const isExpired = (invitation: Pick<Invitation, 'expiresAt'>, now = Date.now()) =>
  new Date(invitation.expiresAt).getTime() <= now;
