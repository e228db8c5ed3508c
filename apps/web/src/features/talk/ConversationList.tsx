import { useLiveRows } from '../../lib/useLiveRows';
import { useNavigate } from 'react-router-dom';
import type { ConversationItem } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { useSync, useSyncState } from '../sync/sync-context';
import { ConversationRow } from './ConversationRow';

/**
 * Newest first; conversations without a message yet (a new group) last. Sorted here rather than through the
 * lastMessageTimestamp index because an index leaves out rows whose key is null.
 */
function newestFirst(rows: ConversationItem[]): ConversationItem[] {
  const time = (row: ConversationItem) => {
    const ms = row.lastMessageTimestamp ? Date.parse(row.lastMessageTimestamp) : NaN;
    return Number.isNaN(ms) ? -Infinity : ms;
  };
  return rows.sort((a, b) => time(b) - time(a));
}

/** The recent conversations, newest first, straight from the local cache: live, and there offline too. */
export function ConversationList() {
  const { db } = useSync();
  const { online } = useSyncState();
  const navigate = useNavigate();
  const conversations = useLiveRows(() => db.conversations.toArray().then(newestFirst), [db]);

  const open = (conversation: ConversationItem) =>
    void navigate(conversation.isGroup ? `/group/${conversation.id}` : `/chat/${conversation.id}`);

  if (conversations === undefined) {
    return (
      <p className="talk-loading" role="status">
        <Spinner />
        <span>Loading conversations…</span>
      </p>
    );
  }
  if (conversations.length === 0) {
    return (
      <div className="empty-state talk-empty">
        <span className="empty-state__icon">
          <Icon name="chat" size={28} />
        </span>
        <p className="empty-state__title">No conversations yet</p>
        <p className="empty-state__text">Start a new chat or create a group to see it here.</p>
      </div>
    );
  }
  return (
    <ul className="conversation-list" aria-label="Recent conversations">
      {conversations.map((conversation) => (
        <ConversationRow
          key={conversation.id}
          conversation={conversation}
          online={online.has(conversation.id)}
          onOpen={open}
        />
      ))}
    </ul>
  );
}
