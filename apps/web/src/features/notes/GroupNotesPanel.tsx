import { useId, useState, type KeyboardEvent } from 'react';
import { NOTES, NOTES_MSG, hasFullAccess } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useSignedInUser } from '../session/session-context';
import { noticeFor } from '../upload/VerificationNotice';
import { NotesTextarea } from './NotesTextarea';
import type { NotesStatus } from './notes-session';
import { useGroupNotes } from './useGroupNotes';
import './notes.css';

const STATUS_TEXT: Record<NotesStatus, string> = {
  synced: NOTES_MSG.synced,
  offline: NOTES_MSG.offline,
  connecting: NOTES_MSG.connecting,
  'too-large': NOTES_MSG.tooLarge,
  refused: NOTES_MSG.refused,
};

export interface GroupNotesPanelProps {
  groupId: string;
  onClose?: () => void;
}

/**
 * The group's shared notes: one text that every member edits live, and offline too (kept on this device and
 * merged on reconnect). Escape anywhere in the panel closes it.
 */
export function GroupNotesPanel({ groupId, onClose }: GroupNotesPanelProps) {
  const { doc, status } = useGroupNotes(groupId);
  const user = useSignedInUser();
  // The access policy: reading the notes is open to every member, editing them is taking part.
  const readOnly = !hasFullAccess(user);
  const [editRefused, setEditRefused] = useState(false);
  const titleId = useId();
  const hintId = useId();

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <aside className="notes-panel" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <header className="notes-panel__header">
        <h2 id={titleId} className="notes-panel__title">
          {NOTES_MSG.title}
        </h2>
        {onClose && (
          <button type="button" className="icon-button" aria-label="Close group notes" onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </header>
      <p id={hintId} className="notes-panel__hint">
        {NOTES_MSG.membersOnly}
      </p>
      {doc ? (
        <NotesTextarea
          key={doc.guid}
          text={doc.getText(NOTES.textName)}
          labelledBy={titleId}
          describedBy={hintId}
          readOnly={readOnly}
          onEditRefused={() => setEditRefused(true)}
          onEditAccepted={() => setEditRefused(false)}
        />
      ) : (
        <div className="notes-textarea notes-textarea--loading" aria-hidden="true" />
      )}
      {readOnly && (
        <p className="notes-panel__hint" role="note">
          {noticeFor(user).text}
        </p>
      )}
      {editRefused && (
        <p className="notes-panel__error" role="alert">
          {NOTES_MSG.editTooLarge}
        </p>
      )}
      <p className={`notes-panel__status notes-panel__status--${status}`} role="status">
        {STATUS_TEXT[status]}
      </p>
    </aside>
  );
}
