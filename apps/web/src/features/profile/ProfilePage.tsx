import { documentStatusBadge } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LogoutButton } from '../session/LogoutButton';
import { useSignedInUser } from '../session/session-context';
import './profile.css';

/** Read-only for now: who you are and where your verification stands. Editing comes in a later update. */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const user = useSignedInUser();
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return (
    <section className="page page--narrow" aria-labelledby="page-title">
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          Profile
        </h1>
      </header>
      <div className="profile-card">
        <div className="profile-card__cover" aria-hidden="true" />
        <div className="profile-card__body">
          <Avatar user={user} size="lg" />
          <h2 className="profile-card__name">{fullName}</h2>
          <span className={`status-badge status-badge--${user.documentStatus}`}>
            {documentStatusBadge(user.documentStatus)}
          </span>
          <p className="profile-card__email">{user.email}</p>
        </div>
      </div>
      <p className="page__note">Editing your profile arrives in a coming update.</p>
      <div className="page__actions page__actions--end">
        <LogoutButton />
      </div>
    </section>
  );
}
