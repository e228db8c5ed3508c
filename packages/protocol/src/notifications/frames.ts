import { z } from 'zod';
import { notificationSchema } from '../confessions/entities';
import { changeFields, frameId, mutationFields } from '../realtime/frame-parts';

/** The notifications feature's mutation and changes. */

export const markNotificationReadFrameSchema = z.object({
  type: z.literal('mark_notification_read'),
  ...mutationFields,
  notificationId: frameId,
});

export const notificationMutationSchemas = [markNotificationReadFrameSchema] as const;

/** A notification for the user (someone reacted to or commented on their confession, a friend request). */
export const notificationCreatedChangeSchema = z.object({
  type: z.literal('notification_created'),
  ...changeFields,
  notification: notificationSchema,
});
/** The user read a notification (on any of their devices). */
export const notificationReadChangeSchema = z.object({
  type: z.literal('notification_read'),
  ...changeFields,
  notificationId: z.string(),
});
/** Notifications of the user that no longer lead anywhere (their confession was deleted). */
export const notificationsDeletedChangeSchema = z.object({
  type: z.literal('notifications_deleted'),
  ...changeFields,
  notificationIds: z.array(z.string()),
});

export const notificationChangeSchemas = [
  notificationCreatedChangeSchema,
  notificationReadChangeSchema,
  notificationsDeletedChangeSchema,
] as const;

export type MarkNotificationReadFrame = z.infer<typeof markNotificationReadFrameSchema>;
export type NotificationCreatedChange = z.infer<typeof notificationCreatedChangeSchema>;
export type NotificationReadChange = z.infer<typeof notificationReadChangeSchema>;
export type NotificationsDeletedChange = z.infer<typeof notificationsDeletedChangeSchema>;
