import * as v from 'valibot';
import { AssignableRoleSchema, RoleSchema, text } from './common';

/** One active admin of the account (GET /admins). */
export const AdminItemSchema = v.object({
  id: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  email: v.string(),
  role: RoleSchema,
});
export type AdminItem = v.InferOutput<typeof AdminItemSchema>;
export const AdminListSchema = v.array(AdminItemSchema);

/** PUT /admins/{id}/role and PUT /invitations/{id}/role: the owner role is never assigned. */
export const RoleUpdateSchema = v.object({ role: AssignableRoleSchema });
export type RoleUpdate = v.InferOutput<typeof RoleUpdateSchema>;

/** Path parameter of the admin and invitation calls. */
export const IdParamSchema = v.object({ id: text() });

export const OWNER_LABEL = 'Account Owner';
