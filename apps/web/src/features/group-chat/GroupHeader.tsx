import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Group } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useSync, useSyncState } from '../sync/sync-context';
import { GroupAvatar } from './GroupAvatar';

/** 'X is typing...' with the first name of the first member typing, or null when nobody is. */
export function groupTypingText(
  group: Group,
  typingIds: readonly string[] | undefined,
  selfId: string,
): string | null {
  const someone = (typingIds ?? []).find((id) => id !== selfId);
  if (!someone) return null;
  const member = group.members.find((m) => m.id === someone);
  return `${member?.firstName || 'Someone'} is typing...`;
}

export function memberCountText(count: number): string {
  return `${count} ${count === 1 ? 'member' : 'members'}`;
}

/** Back to Talk, the group's avatar and name, and its member count or who is typing. */
export function GroupHeader({ group, actions }: { group: Group; actions?: ReactNode }) {
  const { userId } = useSync();
  const { typing } = useSyncState();
  const typingText = groupTypingText(group, typing.get(`g:${group.id}`), userId);

  return (
    <header className="chat-header">
      <Link to="/talk" className="icon-button" aria-label="Back to Talk">
        <Icon name="arrowLeft" />
      </Link>
      <GroupAvatar id={group.id} name={group.name} avatarUrl={group.avatarUrl} />
      <div className="chat-header__text">
        <h1 className="chat-header__title">{group.name}</h1>
        <p className="chat-header__status" aria-live="polite">
          {typingText ? (
            <span className="chat-header__typing">{typingText}</span>
          ) : (
            memberCountText(group.members.length)
          )}
        </p>
      </div>
      {actions ? <div className="chat-header__actions">{actions}</div> : null}
    </header>
  );
}
