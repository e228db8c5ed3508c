import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CHAT_MSG, hasFullAccess } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { useSignedInUser } from '../session/session-context';
import { VerificationNotice } from '../upload/VerificationNotice';
import { Dialog } from '../../components/Dialog';
import './modal.css';
import { fullName } from './users-api';
import { useDirectorySearch } from './useDirectorySearch';
import { MoreStudentsButton } from './MoreStudentsButton';

const ERROR_TEXTS = { http: CHAT_MSG.usersForChatFailed, other: CHAT_MSG.usersListFailed };

/** New chat: search the student directory and open a direct chat with the one chosen. */
export function NewChatDialog({ onClose }: { onClose(): void }) {
  const self = useSignedInUser();
  // The access policy: starting a chat waits for a verified student ID.
  if (!hasFullAccess(self))
    return (
      <Dialog title="New chat" onClose={onClose} size="narrow">
        <VerificationNotice />
      </Dialog>
    );
  return <DirectorySearchDialog onClose={onClose} />;
}

function DirectorySearchDialog({ onClose }: { onClose(): void }) {
  const self = useSignedInUser();
  const navigate = useNavigate();
  const inputId = useId();
  const [query, setQuery] = useState('');
  const { state, loadMore } = useDirectorySearch(self.id, query, ERROR_TEXTS);

  return (
    <Dialog title="New chat" onClose={onClose} size="narrow" closeButton={false}>
      <label className="field__label" htmlFor={inputId}>
        Search students
      </label>
      <input
        id={inputId}
        className="field__input"
        type="search"
        autoComplete="off"
        placeholder="Name, or a whole email address"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <div className="user-results" aria-live="polite">
        {state.kind === 'loading' ? <p className="user-results__note">Searching…</p> : null}
        {state.kind === 'error' ? (
          <p className="talk-error" role="alert">
            {state.message}
          </p>
        ) : null}
        {state.kind === 'done' && state.users.length === 0 ? (
          <p className="user-results__note">{CHAT_MSG.noUsersFound}</p>
        ) : null}
        {state.kind === 'done' && state.users.length > 0 ? (
          <ul className="user-results__list" aria-label="Students">
            {state.users.map((user) => (
              <li key={user.id}>
                <button type="button" className="user-row" onClick={() => void navigate(`/chat/${user.id}`)}>
                  <Avatar user={user} size="sm" />
                  <span className="user-row__text">
                    <span className="user-row__name">{fullName(user)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {state.kind === 'done' && state.hasMore ? (
          <MoreStudentsButton loading={state.loadingMore} onClick={loadMore} />
        ) : null}
      </div>
    </Dialog>
  );
}
