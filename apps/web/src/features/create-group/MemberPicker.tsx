import { useId, useState } from 'react';
import { CHAT_MSG, type DirectoryEntry } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Spinner } from '../../components/Spinner';
import { fullName } from '../talk/users-api';
import { useDirectorySearch } from '../talk/useDirectorySearch';
import { MoreStudentsButton } from '../talk/MoreStudentsButton';

const ERROR_TEXTS = { http: CHAT_MSG.usersFetchFailed, other: CHAT_MSG.usersLoadFailed };

interface MemberPickerProps {
  selfId: string;
  selected: readonly DirectoryEntry[];
  onToggle(user: DirectoryEntry): void;
}

/**
 * Member search (part of a name, or a whole e-mail address, any case; the server searches, as the directory
 * carries no addresses), the matching students as toggles, and the chosen as chips.
 */
export function MemberPicker({ selfId, selected, onToggle }: MemberPickerProps) {
  const searchId = useId();
  const [query, setQuery] = useState('');
  const { state: directory, loadMore } = useDirectorySearch(selfId, query, ERROR_TEXTS);
  const selectedIds = new Set(selected.map((user) => user.id));
  const matches = directory.kind === 'done' ? directory.users : [];

  return (
    <fieldset className="member-picker">
      <legend className="field__label">Members</legend>
      {selected.length > 0 ? (
        <ul className="member-chips" aria-label="Selected members">
          {selected.map((user) => (
            <li key={user.id}>
              <button
                type="button"
                className="member-chip"
                aria-label={`Remove ${fullName(user)}`}
                onClick={() => onToggle(user)}
              >
                <span>{fullName(user)}</span>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label className="visually-hidden" htmlFor={searchId}>
        Search members
      </label>
      <input
        id={searchId}
        className="field__input"
        type="search"
        autoComplete="off"
        placeholder="Search by name, or a whole email address"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {directory.kind === 'loading' ? (
        <p className="talk-loading" role="status">
          <Spinner />
          <span>Loading students…</span>
        </p>
      ) : null}
      {directory.kind === 'error' ? (
        <p className="talk-error" role="alert">
          {directory.message}
        </p>
      ) : null}
      {directory.kind === 'done' && matches.length === 0 ? (
        <p className="user-results__note">{CHAT_MSG.noUsersFound}</p>
      ) : null}
      {matches.length > 0 ? (
        <ul className="user-results__list member-list" aria-label="Students">
          {matches.map((user) => (
            <li key={user.id}>
              <button
                type="button"
                className="user-row"
                aria-pressed={selectedIds.has(user.id)}
                onClick={() => onToggle(user)}
              >
                <Avatar user={user} size="sm" />
                <span className="user-row__text">
                  <span className="user-row__name">{fullName(user)}</span>
                </span>
                <span className="member-list__check" aria-hidden="true">
                  {selectedIds.has(user.id) ? '✓' : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {directory.kind === 'done' && directory.hasMore ? (
        <MoreStudentsButton loading={directory.loadingMore} onClick={loadMore} />
      ) : null}
    </fieldset>
  );
}
