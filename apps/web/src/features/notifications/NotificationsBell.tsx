import { useId } from 'react';
import { formatBadgeCount } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useUnreadCount } from './unread-count';

/** The bell and its unread badge (99+ above 99). The notifications panel itself comes with a later update. */
export function NotificationsBell() {
  const badgeId = useId();
  const badge = formatBadgeCount(useUnreadCount());
  return (
    <button
      type="button"
      className="icon-button bell"
      aria-label="Notifications"
      aria-describedby={badge ? badgeId : undefined}
    >
      <Icon name="bell" />
      {badge ? (
        <span className="bell__badge" id={badgeId}>
          {badge}
          <span className="visually-hidden"> unread</span>
        </span>
      ) : null}
    </button>
  );
}
