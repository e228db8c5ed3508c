import { useId } from 'react';
import { writeUnblockUser } from '@campus/sync';
import { Avatar } from '../../components/Avatar';
import { useLiveRows } from '../../lib/useLiveRows';
import { useSync } from '../sync/sync-context';

/** The people this user blocked, from the cache, each with Unblock (queued, so it works offline). */
export function BlockedUsers() {
  const client = useSync();
  const titleId = useId();
  const blocks = useLiveRows(() => client.db.blocks.toArray(), [client]);
  if (blocks === undefined) return null;
  const sorted = [...blocks].sort((a, b) => b.blockedAt.localeCompare(a.blockedAt));
  return (
    <section className="profile-section" aria-labelledby={titleId}>
      <h3 className="profile-section__title" id={titleId}>
        Blocked users
      </h3>
      {sorted.length === 0 ? (
        <p className="profile-blocked__empty">You have not blocked anyone.</p>
      ) : (
        <ul className="profile-blocked">
          {sorted.map((user) => {
            const name = `${user.firstName} ${user.lastName}`.trim();
            return (
              <li key={user.id} className="profile-blocked__row">
                <Avatar user={user} size="sm" />
                <span className="profile-blocked__name">{name}</span>
                <button
                  type="button"
                  className="button button--secondary"
                  aria-label={`Unblock ${name}`}
                  onClick={() => void client.run(writeUnblockUser, user.id)}
                >
                  Unblock
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
