import { useCallback, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatBadgeCount, notificationUrl, type AppNotification } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { FriendRequestsModal } from '../friends/FriendRequestsModal';
import { usePushNotifications } from '../push/usePushNotifications';
import { NotificationsPanel } from './NotificationsPanel';
import { useNotificationAlerts } from './useNotificationAlerts';
import { useNotifications } from './useNotifications';
import './notifications.css';

/** The bell, its unread badge (99+ above 99) and the notifications panel it opens. */
export function NotificationsBell() {
  const badgeId = useId();
  const panelId = useId();
  const navigate = useNavigate();
  const bellRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [requestsOpen, setRequestsOpen] = useState(false);
  const notifications = useNotifications();
  const push = usePushNotifications();
  useNotificationAlerts(notifications.items);
  const badge = formatBadgeCount(notifications.unreadCount);
  const { refresh, markRead } = notifications;

  const close = useCallback((restoreFocus = true) => {
    setOpen(false);
    if (restoreFocus) bellRef.current?.focus();
  }, []);

  const toggle = () => {
    if (open) return close();
    setOpen(true);
    refresh();
  };

  const select = (notification: AppNotification) => {
    markRead(notification);
    // A friend request opens the modal over the current screen instead of leaving it for Talk.
    if (notification.type === 'friend_request') {
      close(false);
      setRequestsOpen(true);
      return;
    }
    close(false);
    void navigate(notificationUrl(notification));
  };

  return (
    <div className="bell-anchor">
      <button
        ref={bellRef}
        type="button"
        className="icon-button bell"
        aria-label="Notifications"
        aria-describedby={badge ? badgeId : undefined}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-haspopup="dialog"
        onClick={toggle}
      >
        <Icon name="bell" />
        {badge ? (
          <span className="bell__badge" id={badgeId}>
            {badge}
            <span className="visually-hidden"> unread</span>
          </span>
        ) : null}
      </button>
      {open ? (
        <NotificationsPanel
          id={panelId}
          items={notifications.items}
          status={notifications.status}
          anchorRef={bellRef}
          onSelect={select}
          onClose={close}
          onEnablePush={push.canEnable ? push.enable : undefined}
        />
      ) : null}
      {requestsOpen ? (
        <FriendRequestsModal
          onClose={() => {
            setRequestsOpen(false);
            bellRef.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}
