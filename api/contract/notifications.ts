import * as v from 'valibot';
import { text } from './common';
import { TRIAL_REMINDER_DAYS } from './plans';

export const NotificationSchema = v.object({
  id: v.string(),
  /** e.g. invitation.accepted, domain.verified, trial.ending, credits.high */
  kind: v.string(),
  title: v.string(),
  body: v.string(),
  /** a console path to open, when there is something to look at */
  link: v.nullable(v.string()),
  /** ISO 8601 */
  createdAt: v.string(),
  read: v.boolean(),
});
export type Notification = v.InferOutput<typeof NotificationSchema>;

/** GET /notifications: the newest notifications of the account and the caller's unread count. */
export const NotificationListSchema = v.object({
  notifications: v.array(NotificationSchema),
  unread: v.number(),
});
export type NotificationList = v.InferOutput<typeof NotificationListSchema>;

/** POST /notifications/read: one notification ({id}) or every one ({all: true}). */
export const MarkReadBodySchema = v.union([
  v.strictObject({ id: v.pipe(text(), v.uuid('Not a notification id')) }),
  v.strictObject({ all: v.literal(true) }),
]);
export type MarkReadBody = v.InferOutput<typeof MarkReadBodySchema>;

export const MarkReadAnswerSchema = v.object({ unread: v.number() });

/** How many notifications the bell shows. */
export const NOTIFICATION_LIMIT = 30;
/** A free trial this close to its end is worth a notification (the first reminder of plans.ts). */
export const TRIAL_ENDING_DAYS = Math.max(...TRIAL_REMINDER_DAYS);
