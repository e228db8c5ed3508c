import { initials, type User } from '@campus/protocol';

type AvatarUser = Pick<User, 'firstName' | 'lastName' | 'profilePictureUrl'>;

/** The user's picture when they have one, otherwise their initials. Decorative: callers label the control. */
export function Avatar({ user, size = 'md' }: { user: AvatarUser; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      {user.profilePictureUrl ? (
        <img className="avatar__image" src={user.profilePictureUrl} alt="" />
      ) : (
        initials(user)
      )}
    </span>
  );
}
