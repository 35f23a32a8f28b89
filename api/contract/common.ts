import * as v from 'valibot';
import { APP_IDS } from './apps';

export const AppIdSchema = v.picklist(APP_IDS);

export const ROLES = ['owner', 'admin', 'supervisor'] as const;
export const RoleSchema = v.picklist(ROLES);
export type Role = v.InferOutput<typeof RoleSchema>;

/** Roles that can be given to someone: the owner is never assigned, only created with the account. */
export const AssignableRoleSchema = v.picklist(['admin', 'supervisor']);
export type AssignableRole = v.InferOutput<typeof AssignableRoleSchema>;

export const BILLING_STATUSES = ['inactive', 'free-trial', 'subscription', 'enterprise', 'cancelled'] as const;
export const BillingStatusSchema = v.picklist(BILLING_STATUSES);
export type BillingStatus = v.InferOutput<typeof BillingStatusSchema>;

export const PLATFORMS = ['azure', 'google', 'webex', 'zoom', 'okta', 'oidc'] as const;
export const PlatformSchema = v.picklist(PLATFORMS);
export type Platform = v.InferOutput<typeof PlatformSchema>;

export const EmailSchema = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('Please provide a valid email address'), v.maxLength(254));

/** Every error answer of the API. `fields` names the failing inputs of a 400. */
export const ErrorBodySchema = v.object({
  code: v.string(),
  message: v.string(),
  fields: v.optional(v.record(v.string(), v.string())),
});
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

export { TIME_ZONE_HEADER } from './constants';
