import { useState } from 'react';
import { initials, type User } from '@campus/protocol';

type AvatarUser = Pick<User, 'firstName' | 'lastName' | 'profilePictureUrl'>;

/**
 * The user's picture when they have one, otherwise their initials; also the initials when the picture
 * cannot be loaded (offline, removed since the cache was written). Decorative: callers label the control.
 */
export function Avatar({ user, size = 'md' }: { user: AvatarUser; size?: 'sm' | 'md' | 'lg' }) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = user.profilePictureUrl;
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      {src && failed !== src ? (
        <img className="avatar__image" src={src} alt="" onError={() => setFailed(src)} />
      ) : (
        initials(user)
      )}
    </span>
  );
}
