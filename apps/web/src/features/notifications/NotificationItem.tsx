import { panelRelativeTime, type AppNotification, type NotificationType } from '@campus/protocol';
import { Icon, type IconName } from '../../components/Icon';

const ICONS: Record<NotificationType, IconName> = {
  confession_reaction: 'heart',
  confession_comment: 'chat',
  friend_request: 'users',
  document_verified: 'shield',
  document_rejected: 'shield',
  moderation_notice: 'shield',
};

interface NotificationItemProps {
  notification: AppNotification;
  now: number;
  onSelect(notification: AppNotification): void;
}

/** One row: icon by type, title, body, the panel's relative time and an unread dot. */
export function NotificationItem({ notification, now, onSelect }: NotificationItemProps) {
  const unread = !notification.isRead;
  return (
    <li>
      <button
        type="button"
        className="notification"
        data-type={notification.type}
        data-unread={unread}
        onClick={() => onSelect(notification)}
      >
        <span className="notification__icon">
          <Icon name={ICONS[notification.type]} size={18} />
        </span>
        <span className="notification__text">
          <span className="notification__title">{notification.title}</span>
          <span className="notification__body">{notification.body}</span>
        </span>
        <time className="notification__time" dateTime={notification.createdAt}>
          {panelRelativeTime(notification.createdAt, now)}
        </time>
        {unread ? (
          <span className="notification__dot">
            <span className="visually-hidden">Unread</span>
          </span>
        ) : null}
      </button>
    </li>
  );
}
