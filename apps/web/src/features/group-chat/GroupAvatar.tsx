import { avatarHue } from '@campus/protocol';

function groupInitials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? '')
    .join('');
  return letters.toUpperCase() || '#';
}

/** The group's picture, or a placeholder whose colour comes from the group id (the spec's generated avatar). */
export function GroupAvatar({ id, name, avatarUrl }: { id: string; name: string; avatarUrl: string | null }) {
  return (
    <span
      className="avatar avatar--md group-avatar"
      aria-hidden="true"
      style={{ background: `hsl(${avatarHue(id)} 55% 45%)` }}
    >
      {avatarUrl ? <img className="avatar__image" src={avatarUrl} alt="" /> : groupInitials(name)}
    </span>
  );
}
