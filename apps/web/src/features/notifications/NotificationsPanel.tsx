import { useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { CONFESSION_MSG, type AppNotification } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { NotificationItem } from './NotificationItem';
import type { PanelStatus } from './useNotifications';
import { useNow } from './useNow';

/** Labels refresh every 60 seconds (spec section 9). */
const TIME_REFRESH_MS = 60_000;
const SKELETONS = 3;
const NO_MATCHES = 'No matching notifications.';

interface NotificationsPanelProps {
  id: string;
  items: readonly AppNotification[];
  status: PanelStatus;
  /** The bell: a click on it is not a click outside (it toggles the panel itself). */
  anchorRef: RefObject<HTMLElement | null>;
  onSelect(notification: AppNotification): void;
  /** restoreFocus false for a click outside: focus goes where the user clicked. */
  onClose(restoreFocus?: boolean): void;
  /** 'Enable notifications' (web push), when the browser can still ask. */
  onEnablePush?: () => void;
}

function matches(notification: AppNotification, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return (
    notification.title.toLowerCase().includes(needle) || notification.body.toLowerCase().includes(needle)
  );
}

/**
 * The panel under the bell: a non-modal dialog. Focus goes to its search box on open and back to the bell
 * on close; Escape, a click outside and the Close button close it.
 */
export function NotificationsPanel(props: NotificationsPanelProps) {
  const { id, items, status, anchorRef, onSelect, onClose, onEnablePush } = props;
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const now = useNow(TIME_REFRESH_MS);
  const shown = useMemo(() => items.filter((n) => matches(n, query)), [items, query]);

  useEffect(() => {
    searchRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const onPointer = (event: PointerEvent | MouseEvent) => {
      const target = event.target as Node | null;
      if (!target || panelRef.current?.contains(target) || anchorRef.current?.contains(target)) return;
      onClose(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPointer);
    };
  }, [anchorRef, onClose]);

  const loading = status === 'loading' && items.length === 0;
  return (
    <div className="notifications-panel" id={id} role="dialog" aria-labelledby={titleId} ref={panelRef}>
      <div className="notifications-panel__header">
        <h2 className="notifications-panel__title" id={titleId}>
          Notifications
        </h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => onClose()}>
          <Icon name="close" size={18} />
        </button>
      </div>
      <input
        ref={searchRef}
        className="field__input notifications-panel__search"
        type="search"
        aria-label={CONFESSION_MSG.notificationsSearch}
        placeholder={CONFESSION_MSG.notificationsSearch}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {onEnablePush ? (
        <button type="button" className="button button--secondary button--small" onClick={onEnablePush}>
          Enable notifications
        </button>
      ) : null}
      {status === 'error' ? (
        <p className="notifications-panel__error" role="alert">
          {CONFESSION_MSG.notificationsFailed}
        </p>
      ) : null}
      <div className="notifications-panel__list" aria-busy={status === 'loading'}>
        {loading ? (
          <ul className="notifications-panel__items" aria-label="Loading notifications">
            {Array.from({ length: SKELETONS }, (_, index) => (
              <li key={index} className="notification-skeleton" data-testid="notification-skeleton" />
            ))}
          </ul>
        ) : status !== 'error' && items.length === 0 ? (
          <div className="notifications-panel__empty">
            <p className="notifications-panel__empty-title">{CONFESSION_MSG.notificationsEmptyTitle}</p>
            <p>{CONFESSION_MSG.notificationsEmptyBody}</p>
          </div>
        ) : status !== 'error' && shown.length === 0 ? (
          // A search that matches nothing: say so rather than show an empty box.
          <p className="notifications-panel__none" role="status">
            {NO_MATCHES}
          </p>
        ) : (
          <ul className="notifications-panel__items">
            {shown.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                now={now}
                onSelect={onSelect}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
