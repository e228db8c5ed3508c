import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import { documentStatusBadge, type User } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { collegeName } from './completion';

/** 'Year 2', or null when the year is not set. */
export function yearText(year: number | null): string | null {
  return year === null ? null : `Year ${year}`;
}

interface Props {
  user: User;
  editing: boolean;
  onEdit(): void;
  /** Focus returns to Edit Profile when edit mode ends. */
  editButtonRef?: Ref<HTMLButtonElement>;
}

/**
 * The profile's card: avatar, full name, document-status badge, e-mail, course, college and year, with
 * Edit Profile, and Re-upload Document (with the admin's reason) when the document was rejected.
 */
export function ProfileSummary({ user, editing, onEdit, editButtonRef }: Props) {
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const facts = [user.course?.trim(), collegeName(user.college), yearText(user.year)].filter(Boolean);
  const rejected = user.documentStatus === 'rejected';
  return (
    <div className="profile-card">
      <div className="profile-card__cover" aria-hidden="true" />
      <div className="profile-card__body">
        <Avatar user={user} size="lg" />
        <h2 className="profile-card__name">{fullName}</h2>
        <span className={`status-badge status-badge--${user.documentStatus}`}>
          <span className="visually-hidden">Document status: </span>
          {documentStatusBadge(user.documentStatus)}
        </span>
        <p className="profile-card__email">{user.email}</p>
        {facts.length > 0 ? (
          <ul className="profile-card__facts" aria-label="Education">
            {facts.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
        ) : null}
        {rejected ? (
          <div className="profile-card__rejected">
            {user.rejectionReason ? (
              <p>
                <strong>Reason: </strong>
                {user.rejectionReason}
              </p>
            ) : (
              <p>Your student ID was not accepted.</p>
            )}
          </div>
        ) : null}
        {!editing || rejected ? (
          <div className="profile-card__actions">
            {!editing ? (
              <button ref={editButtonRef} type="button" className="button button--primary" onClick={onEdit}>
                Edit Profile
              </button>
            ) : null}
            {rejected ? (
              <Link to="/upload-document" className="button button--secondary">
                Re-upload Document
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
