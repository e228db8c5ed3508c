import { defineMutation, type MutationClients } from '../../feature-contract';
import { setNotificationRead } from './store';

/** Whether the notification was read here before the mark (`kind` kept for rows queued by earlier versions). */
export interface NotificationReadUndo {
  kind: 'notificationRead';
  notificationId: string;
  wasRead: boolean;
}

export const markNotificationRead = defineMutation<'mark_notification_read', NotificationReadUndo>(
  'mark_notification_read',
  {
    rollback: async ({ db, undo }) => {
      if (undo?.kind === 'notificationRead' && !undo.wasRead)
        await setNotificationRead(db, undo.notificationId, false);
    },
  },
);

export const notificationMutations = {
  mark_notification_read: markNotificationRead,
} satisfies Partial<MutationClients>;
