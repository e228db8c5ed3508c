import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FRIEND_MSG, type UserRef } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLiveRows } from '../../lib/useLiveRows';
import { useSync, useSyncState } from '../sync/sync-context';
import { countText, visibleFriends } from './friend-list';
import { FriendActionsDialog } from './FriendActionsDialog';
import { FriendRequestsModal } from './FriendRequestsModal';
import { FriendRow, FriendSkeletons } from './FriendRow';
import { useFriendsLoad } from './useFriendsLoad';
import './friends.css';

/** The spec's Friends screen, rendered from the cache; online dots and the filter follow live presence. */
export function FriendsPage() {
  useDocumentTitle('Friends');
  const client = useSync();
  const { online } = useSyncState();
  const navigate = useNavigate();
  const searchId = useId();
  const load = useFriendsLoad();
  const friends = useLiveRows(() => client.db.friends.toArray(), [client]);
  const requestCount = useLiveRows(() => client.db.friendRequests.count(), [client]);
  const [query, setQuery] = useState('');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const [menuFor, setMenuFor] = useState<UserRef | null>(null);
  const [requestsOpen, setRequestsOpen] = useState(false);

  const total = friends?.length ?? 0;
  const shown = visibleFriends(friends ?? [], query, onlineOnly, online);
  const filtered = query.trim() !== '' || onlineOnly;
  // Skeletons only while nothing is cached yet: a cached list shows at once, offline included.
  const firstLoad = friends === undefined || (total === 0 && load.status === 'loading');

  return (
    <section className="page friends" aria-labelledby="page-title">
      <header className="page__header friends__header">
        <Link to="/talk" className="icon-button" aria-label="Back to Talk">
          <Icon name="arrowLeft" />
        </Link>
        <h1 className="page__title" id="page-title">
          Friends
        </h1>
        {!firstLoad && <span className="friends__count">{countText(shown.length, total, filtered)}</span>}
        <button type="button" className="button button--secondary" onClick={() => setRequestsOpen(true)}>
          Requests ({requestCount ?? 0})
        </button>
      </header>

      <div className="friends__tools">
        <div className="friends__search">
          <label htmlFor={searchId} className="visually-hidden">
            Search friends
          </label>
          <input
            id={searchId}
            type="search"
            className="field__input"
            placeholder="Search friends..."
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {query ? (
            <button
              type="button"
              className="icon-button"
              aria-label="Clear search"
              onClick={() => setQuery('')}
            >
              <Icon name="close" />
            </button>
          ) : null}
        </div>
        <button
          type="button"
          className={`button ${onlineOnly ? '' : 'button--secondary'}`}
          aria-pressed={onlineOnly}
          onClick={() => setOnlineOnly((v) => !v)}
        >
          {onlineOnly ? 'Showing Online Only' : 'Show Online Only'}
        </button>
      </div>

      {firstLoad ? (
        <FriendSkeletons />
      ) : total === 0 && load.status === 'error' ? (
        <div className="friends__state" role="alert">
          <p>{FRIEND_MSG.fetchFriendsFailed}</p>
          <button type="button" className="button" onClick={load.retry}>
            Retry
          </button>
        </div>
      ) : total === 0 ? (
        <div className="friends__state">
          <h2>No friends yet</h2>
          <p>Start connecting with people and build your network!</p>
          <button type="button" className="button" onClick={() => void navigate('/random-talk-options')}>
            Find Buddies
          </button>
        </div>
      ) : (
        <ul className="friend-list" aria-label="Friends">
          {shown.map((friend, index) => (
            <FriendRow
              key={friend.id}
              friend={friend}
              online={online.has(friend.id)}
              index={index}
              onMenu={setMenuFor}
            />
          ))}
        </ul>
      )}

      {menuFor ? <FriendActionsDialog friend={menuFor} onClose={() => setMenuFor(null)} /> : null}
      {requestsOpen ? <FriendRequestsModal onClose={() => setRequestsOpen(false)} /> : null}
    </section>
  );
}
