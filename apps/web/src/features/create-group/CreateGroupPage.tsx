import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { CHAT, CHAT_MSG, hasFullAccess, validateGroupDraft, type DirectoryEntry } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSignedInUser } from '../session/session-context';
import { useSync } from '../sync/sync-context';
import { AccessRefusalLink } from '../upload/AccessRefusalLink';
import { VerificationNotice } from '../upload/VerificationNotice';
import '../talk/modal.css';
import { createGroup, storeCreatedGroup } from './create-group-api';
import { MemberPicker } from './MemberPicker';
import './create-group.css';

/** Create Group: a name and at least one member; on success the new group's chat opens. */
export function CreateGroupPage() {
  useDocumentTitle('Create group');
  const api = useApi();
  const { db } = useSync();
  const self = useSignedInUser();
  const navigate = useNavigate();
  const nameId = useId();
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<DirectoryEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (user: DirectoryEntry) =>
    setSelected((current) =>
      current.some((member) => member.id === user.id)
        ? current.filter((member) => member.id !== user.id)
        : [...current, user],
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const memberIds = selected.map((user) => user.id);
    const invalid = validateGroupDraft({ name, memberIds });
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      const group = await createGroup(api, name, memberIds);
      await storeCreatedGroup(db, group);
      void navigate(`/group/${group.id}`);
    } catch (failure) {
      setError(failureText(failure, CHAT_MSG.groupCreateFailed, CHAT_MSG.groupCreateError));
      setBusy(false);
    }
  };

  // The access policy: creating a group waits for a verified student ID (and the picker is not needed).
  if (!hasFullAccess(self))
    return (
      <section className="page page--narrow" aria-labelledby="page-title">
        <h1 className="page__title page__header" id="page-title">
          Create Group
        </h1>
        <VerificationNotice />
      </section>
    );

  return (
    <section className="page page--narrow" aria-labelledby="page-title">
      <Link to="/talk" className="button button--ghost button--small create-group__back">
        <Icon name="arrowLeft" size={18} />
        <span>Back to Talk</span>
      </Link>
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          Create Group
        </h1>
      </header>
      <form className="create-group" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label className="field__label" htmlFor={nameId}>
            Group Name
          </label>
          <input
            id={nameId}
            className="field__input"
            type="text"
            autoComplete="off"
            maxLength={CHAT.maxGroupNameLength}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <MemberPicker selfId={self.id} selected={selected} onToggle={toggle} />
        {error ? (
          <p className="form-message form-message--error" role="alert">
            {error}
            <AccessRefusalLink text={error} />
          </p>
        ) : null}
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Creating…' : 'Create Group'}
        </button>
      </form>
    </section>
  );
}
