import { Link } from 'react-router-dom';
import type { UserRef } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { CallButtons } from '../calls/CallButtons';
import { fullName } from './friend-list';

/** One friend: avatar with its online dot, name, open chat, audio and video call, and the menu (Report, Unfriend, Block). */
export function FriendRow({
  friend,
  online,
  index,
  onMenu,
}: {
  friend: UserRef;
  online: boolean;
  index: number;
  onMenu(friend: UserRef): void;
}) {
  const name = fullName(friend);
  return (
    // The spec's 50 ms stagger, as a CSS delay so rows appear one after another without timers; capped at
    // the 20th row so a long list is not still fading in seconds later.
    <li className="friend-row" style={{ animationDelay: `${Math.min(index, 20) * 50}ms` }}>
      <span className="friend-row__avatar">
        <Avatar user={friend} />
        <span
          className={`friend-row__dot${online ? ' friend-row__dot--online' : ''}`}
          role="img"
          aria-label={online ? 'Online' : 'Offline'}
        />
      </span>
      <span className="friend-row__name">{name}</span>
      <Link
        to={`/chat/${encodeURIComponent(friend.id)}`}
        className="icon-button"
        aria-label={`Chat with ${name}`}
      >
        <Icon name="chat" />
      </Link>
      <CallButtons user={friend} />
      <button
        type="button"
        className="icon-button"
        aria-label={`More actions for ${name}`}
        aria-haspopup="dialog"
        onClick={() => onMenu(friend)}
      >
        <Icon name="menu" />
      </button>
    </li>
  );
}

export function FriendSkeletons() {
  return (
    <ul className="friend-list" aria-hidden="true" data-testid="friend-skeletons">
      {Array.from({ length: 6 }, (_, i) => (
        <li key={i} className="friend-row friend-row--skeleton" />
      ))}
    </ul>
  );
}
