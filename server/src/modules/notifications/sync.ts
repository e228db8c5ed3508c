import type { AppDeps } from '../../lib/deps';
import type { ChangeHooks, MutationHandlers } from '../../realtime/registry';
import { markNotificationRead } from './writes';

/**
 * The notifications feature's entries in the engine's tables (server/src/features.ts).
 * `mark_notification_read` is never refused: reading is idempotent, and an id that is not the user's
 * changes nothing and reveals nothing, so the device's queued read is simply acknowledged.
 */
export function notificationMutationHandlers(
  _deps: AppDeps,
): Pick<MutationHandlers, 'mark_notification_read'> {
  return {
    mark_notification_read: {
      access: 'open',
      async apply(tx, frame, actor) {
        await markNotificationRead(tx, actor.userId, frame.notificationId);
      },
    },
  };
}

/** Nothing happens on a connection when these arrive: the client applies them. */
export const notificationChangeHooks: Pick<
  ChangeHooks,
  'notification_created' | 'notification_read' | 'notifications_deleted'
> = {
  notification_created: {},
  notification_read: {},
  notifications_deleted: {},
};
