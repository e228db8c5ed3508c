import type { MarkNotificationReadFrame } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { markNotificationRead } from './service';

/**
 * The outbox's `mark_notification_read`, for the chat mutation dispatcher (inside its commit; the nested
 * commit is a savepoint). Never refused: reading is idempotent, and an id that is not the user's changes
 * nothing and reveals nothing, so the device's queued read is simply acknowledged.
 */
export function applyNotificationMutation(
  deps: AppDeps,
  userId: string,
  frame: MarkNotificationReadFrame,
): void {
  markNotificationRead(deps, userId, frame.notificationId);
}
