import { conversationSnippet, shortTime, type ConversationItem } from '@campus/protocol';
import { ConversationAvatar } from './ConversationAvatar';

interface ConversationRowProps {
  conversation: ConversationItem;
  online: boolean;
  onOpen(conversation: ConversationItem): void;
}

/**
 * One recent conversation: the whole row is one button. Its accessible name is its content (name, time,
 * snippet) with the online state and unread count as visually hidden text, so nothing on screen goes unheard.
 * It starts with the name and says 'N unread' (the end-to-end tests find rows that way).
 */
export function ConversationRow({ conversation, online, onOpen }: ConversationRowProps) {
  const { name, lastMessageSnippet, lastMessageTimestamp, unreadCount, isGroup } = conversation;
  const status = [
    isGroup ? 'group' : online ? 'online' : null,
    unreadCount > 0 ? `${unreadCount} unread` : null,
  ]
    .filter(Boolean)
    .map((part) => `, ${part}`)
    .join('');
  return (
    <li>
      <button
        type="button"
        className="conversation"
        data-unread={unreadCount > 0}
        onClick={() => onOpen(conversation)}
      >
        <span className="conversation__avatar">
          <ConversationAvatar conversation={conversation} />
          {!isGroup && online ? <span className="conversation__online" aria-hidden="true" /> : null}
        </span>
        <span className="conversation__body">
          <span className="conversation__top">
            <span className="conversation__name">{name || 'Unknown user'}</span>
            <span className="visually-hidden">{lastMessageTimestamp ? `${status}, ` : status}</span>
            {lastMessageTimestamp ? (
              <time className="conversation__time" dateTime={lastMessageTimestamp}>
                {shortTime(lastMessageTimestamp)}
              </time>
            ) : null}
          </span>
          <span className="conversation__bottom">
            {lastMessageSnippet ? <span className="visually-hidden">{': '}</span> : null}
            <span className="conversation__snippet">{conversationSnippet(lastMessageSnippet)}</span>
            {unreadCount > 0 ? (
              <span className="conversation__badge" aria-hidden="true">
                {unreadCount > 99 ? '99+' : unreadCount}
              </span>
            ) : null}
          </span>
        </span>
      </button>
    </li>
  );
}
