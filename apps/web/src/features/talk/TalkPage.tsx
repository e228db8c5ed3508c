import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { FriendRequestsLink } from '../friends/FriendRequestsLink';
import { useSyncState } from '../sync/sync-context';
import { ConversationList } from './ConversationList';
import { NewChatDialog } from './NewChatDialog';
import { RandomTalkCard } from './RandomTalkCard';
import { TalkTips } from './TalkTips';
import './talk.css';

function OnlineCount() {
  const { onlineCount } = useSyncState();
  if (onlineCount === null) return null;
  return (
    <p className="talk-online">
      <span className="talk-online__dot" aria-hidden="true" />
      {onlineCount} {onlineCount === 1 ? 'student' : 'students'} online
    </p>
  );
}

/** Talk home: ways to meet people, the recent conversations from the local cache, tips and safety. */
export function TalkPage() {
  useDocumentTitle('Talk');
  const navigate = useNavigate();
  const [newChatOpen, setNewChatOpen] = useState(false);
  return (
    <section className="page talk" aria-labelledby="page-title">
      <header className="page__header talk__header">
        <div>
          <h1 className="page__title" id="page-title">
            Talk
          </h1>
          <OnlineCount />
        </div>
        <div className="talk__actions">
          <Link to="/call-history" className="button button--secondary">
            <Icon name="clock" size={18} />
            <span>Call history</span>
          </Link>
          <button type="button" className="button button--secondary" onClick={() => setNewChatOpen(true)}>
            <Icon name="chat" size={18} />
            <span>New chat</span>
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void navigate('/create-group')}
          >
            <Icon name="users" size={18} />
            <span>New group</span>
          </button>
        </div>
      </header>

      <div className="talk-cards">
        <RandomTalkCard />
        <button
          type="button"
          className="talk-card talk-card--friends"
          onClick={() => void navigate('/friends')}
        >
          <span className="talk-card__icon">
            <Icon name="users" size={24} />
          </span>
          <span className="talk-card__title">Friends List</span>
          <span className="talk-card__text">Chat and call the students you are friends with.</span>
        </button>
      </div>

      <section className="talk-section" aria-labelledby="talk-recent-title">
        <h2 className="talk-section__title" id="talk-recent-title">
          Recent conversations
        </h2>
        <ConversationList />
      </section>

      <TalkTips />
      {newChatOpen ? <NewChatDialog onClose={() => setNewChatOpen(false)} /> : null}
      <FriendRequestsLink />
    </section>
  );
}
