import type { CSSProperties } from 'react';
import { avatarHue, type ConversationItem } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';

type AvatarSource = Pick<ConversationItem, 'id' | 'name' | 'avatarUrl' | 'isGroup'>;

/** First word as the first name, the rest as the last: enough for initials. */
function nameParts(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/** A group without a picture gets a colour generated from its id (the spec's placeholder), and its initial. */
export function GroupAvatar({ id, name, size = 'md' }: { id: string; name: string; size?: 'sm' | 'md' }) {
  return (
    <span
      className={`avatar avatar--${size} avatar--generated`}
      style={{ '--avatar-hue': avatarHue(id) } as CSSProperties}
      aria-hidden="true"
    >
      {Array.from(name.trim())[0]?.toUpperCase() ?? '#'}
    </span>
  );
}

export function ConversationAvatar({ conversation }: { conversation: AvatarSource }) {
  if (conversation.isGroup && !conversation.avatarUrl)
    return <GroupAvatar id={conversation.id} name={conversation.name} />;
  return <Avatar user={{ ...nameParts(conversation.name), profilePictureUrl: conversation.avatarUrl }} />;
}
