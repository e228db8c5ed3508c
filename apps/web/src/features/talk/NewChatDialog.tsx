import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CHAT_MSG, type UserListEntry } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { useApi } from '../../lib/ApiContext';
import { useSignedInUser } from '../session/session-context';
import { Dialog } from '../../components/Dialog';
import './modal.css';
import { fetchUsers, fullName, usersErrorText } from './users-api';

/** Typing pauses this long before the directory is asked, so a name is one request, not one per letter. */
const SEARCH_DEBOUNCE_MS = 250;

type SearchState =
  { kind: 'loading' } | { kind: 'done'; users: UserListEntry[] } | { kind: 'error'; message: string };

/** New chat: search the student directory and open a direct chat with the one chosen. */
export function NewChatDialog({ onClose }: { onClose(): void }) {
  const api = useApi();
  const self = useSignedInUser();
  const navigate = useNavigate();
  const inputId = useId();
  const [query, setQuery] = useState('');
  const [state, setState] = useState<SearchState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState({ kind: 'loading' });
      fetchUsers(api, self.id, query, controller.signal).then(
        (users) => setState({ kind: 'done', users }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = usersErrorText(error, CHAT_MSG.usersForChatFailed, CHAT_MSG.usersListFailed);
          setState({ kind: 'error', message });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, self.id, query]);

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
        placeholder="Name or email"
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
                    <span className="user-row__email">{user.email}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Dialog>
  );
}
