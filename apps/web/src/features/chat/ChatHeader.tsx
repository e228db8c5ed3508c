import { Link } from 'react-router-dom';
import { lastActiveText, UNKNOWN_USER } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { CallButtons } from '../calls/CallButtons';
import { ChatFriendActions } from '../friends/ChatFriendActions';
import { useSyncState } from '../sync/sync-context';
import type { ChatPartner } from './useChatPartner';
import { useNow } from './useNow';

/** Back to Talk, the partner, 'typing...' or when they were last active, audio/video call, Add Friend / Block. */
export function ChatHeader({
  partnerId,
  partner,
}: {
  partnerId: string;
  partner: ChatPartner | null | undefined;
}) {
  const { typing, online, lastActive } = useSyncState();
  const now = useNow();
  const isTyping = (typing.get(`u:${partnerId}`)?.length ?? 0) > 0;
  const activity = online.has(partnerId)
    ? 'Active now'
    : lastActiveText(lastActive.get(partnerId) ?? partner?.lastActiveAt, now);

  return (
    <header className="chat-header">
      <Link to="/talk" className="icon-button" aria-label="Back to Talk">
        <Icon name="arrowLeft" />
      </Link>
      <Avatar user={partner?.ref ?? UNKNOWN_USER} />
      <div className="chat-header__text">
        <h1 className="chat-header__title">
          {partner?.name || (partner === undefined ? '…' : 'Unknown user')}
        </h1>
        <p className="chat-header__status" aria-live="polite">
          {isTyping ? <span className="chat-header__typing">typing...</span> : activity}
        </p>
      </div>
      {partner ? (
        <div className="chat-header__calls">
          <CallButtons user={partner.ref} />
        </div>
      ) : null}
      {partner ? <ChatFriendActions partner={partner.ref} /> : null}
    </header>
  );
}
