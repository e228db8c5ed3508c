import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LogoutButton } from '../session/LogoutButton';
import { useSignedInUser } from '../session/session-context';
import { BlockedUsers } from './BlockedUsers';
import { ProfileDetails } from './ProfileDetails';
import { ProfileEditor } from './ProfileEditor';
import { ProfileSummary } from './ProfileSummary';
import { wantsEditMode } from './profile-route';
import './profile.css';

/** How long 'Profile updated!' stays after a save (spec 000, section 9). */
export const PROFILE_NOTICE_MS = 2500;
export const PROFILE_UPDATED = 'Profile updated!';

/**
 * The student's profile: the card, then read mode (About Me, Education) or edit mode (Edit Profile), and
 * Logout at the bottom. The completion modal's Complete Profile opens it in edit mode.
 */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const user = useSignedInUser();
  const location = useLocation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(() => wantsEditMode(location.state));
  const [notice, setNotice] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);

  // The edit-mode request is used once: a reload or Back shows the profile in read mode.
  useEffect(() => {
    if (wantsEditMode(location.state)) void navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);

  // At commit, not after paint: the Save button that had focus is gone, and focus must not sit on <body>.
  useLayoutEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  // Started with the save's answer, not in an effect, so the 2.5 s count from the moment it shows.
  const noticeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const showNotice = (shown: boolean) => {
    clearTimeout(noticeTimer.current);
    setNotice(shown);
    if (shown) noticeTimer.current = setTimeout(() => setNotice(false), PROFILE_NOTICE_MS);
  };
  useEffect(() => () => clearTimeout(noticeTimer.current), []);

  return (
    <section className="page page--narrow profile-page" aria-labelledby="page-title">
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          Profile
        </h1>
      </header>
      <div className="profile-page__notice" role="status">
        {notice ? <p className="form-message form-message--success">{PROFILE_UPDATED}</p> : null}
      </div>
      <ProfileSummary
        user={user}
        editing={editing}
        editButtonRef={editButton}
        onEdit={() => {
          showNotice(false);
          setEditing(true);
        }}
      />
      {editing ? (
        <ProfileEditor
          user={user}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            showNotice(true);
          }}
        />
      ) : (
        <>
          <ProfileDetails user={user} />
          <BlockedUsers />
        </>
      )}
      <div className="page__actions page__actions--end">
        <LogoutButton />
      </div>
    </section>
  );
}
