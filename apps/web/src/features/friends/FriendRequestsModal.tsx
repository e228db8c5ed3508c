import { useEffect, useState } from 'react';
import { FRIEND_MSG } from '@campus/protocol';
import { writeDecideFriendRequest } from '@campus/sync';
import { Avatar } from '../../components/Avatar';
import { Dialog } from '../../components/Dialog';
import { useLiveRows } from '../../lib/useLiveRows';
import { useSync } from '../sync/sync-context';
import { fullName } from './friend-list';
import { useFriendsLoad } from './useFriendsLoad';
import './friends.css';

/**
 * The spec's Friend requests modal: incoming requests, newest first, from the cache, with Accept and
 * Reject. Answers go through the outbox, so they work offline; the request leaves the list at once.
 */
export function FriendRequestsModal({ onClose }: { onClose(): void }) {
  const client = useSync();
  const load = useFriendsLoad();
  const requests = useLiveRows(
    () => client.db.friendRequests.orderBy('createdAt').reverse().toArray(),
    [client],
  );
  const [error, setError] = useState<string | null>(null);
  // An answer the server refused (already answered on another device, say): the outbox has undone it in the
  // list (back if still pending, gone if not), and here the spec's line says it did not go through.
  useEffect(
    () =>
      client.onMessageError((refusal) => {
        if (refusal.context === 'decide_friend_request') setError(FRIEND_MSG.updateFailed);
      }),
    [client],
  );

  const decide = (id: string, decision: 'accept' | 'reject') => {
    setError(null);
    client.run(writeDecideFriendRequest, id, decision).catch(() => setError(FRIEND_MSG.updateFailed));
  };

  // A failed refresh only matters when the cache has nothing to show.
  const fetchFailed = load.status === 'error' && requests?.length === 0;
  return (
    <Dialog title="Friend requests" onClose={onClose} size="narrow">
      {error || fetchFailed ? (
        <p className="form-message form-message--error" role="alert">
          {error ?? FRIEND_MSG.fetchRequestsFailed}
        </p>
      ) : null}
      {requests === undefined || (requests.length === 0 && load.status === 'loading') ? (
        <p className="friend-requests__empty">Loading…</p>
      ) : requests.length === 0 ? (
        fetchFailed ? null : (
          <p className="friend-requests__empty">No friend requests</p>
        )
      ) : (
        <ul className="friend-requests">
          {requests.map((request) => (
            <li key={request.id} className="friend-requests__row">
              <Avatar user={request.from} size="sm" />
              <span className="friend-row__name">{fullName(request.from)}</span>
              <button type="button" className="button" onClick={() => decide(request.id, 'accept')}>
                Accept
              </button>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => decide(request.id, 'reject')}
              >
                Reject
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
