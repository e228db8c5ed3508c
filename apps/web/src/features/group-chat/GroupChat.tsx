import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { CHAT, CHAT_MSG, hasFullAccess, type Group } from '@campus/protocol';
import { writeGroupMessage } from '@campus/sync';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Composer } from '../chat/Composer';
import { groupWindow } from '../chat/chat-window';
import { MessageList } from '../chat/MessageList';
import { UploadRows } from '../chat/UploadRows';
import { useAttachmentUploads } from '../chat/useAttachmentUploads';
import { useHistoryPages } from '../chat/useHistoryPages';
import { useInlineErrors } from '../chat/useInlineErrors';
import { useDocumentVisible } from '../chat/useMarkRead';
import { useTypingSignal } from '../chat/useTypingSignal';
import { useNotConnected } from '../offline/useNotConnected';
import { useSignedInUser } from '../session/session-context';
import { useSync } from '../sync/sync-context';
import { AccessRefusalLink } from '../upload/AccessRefusalLink';
import { VerificationNotice } from '../upload/VerificationNotice';
import { GroupHeader } from './GroupHeader';
import { GroupMessageItem } from './GroupMessageItem';
import { GroupNotesDrawer } from './GroupNotesDrawer';
import '../chat/chat.css';

const historyError = () => CHAT_MSG.groupHistoryError;

/** The conversation of a group the user belongs to. */
export function GroupChat({ group }: { group: Group }) {
  const client = useSync();
  const { db } = client;
  const groupId = group.id;
  useDocumentTitle(group.name);

  useEffect(() => client.joinGroup(groupId), [client, groupId]);

  const query = useCallback((limit: number) => groupWindow(db, groupId, limit), [db, groupId]);
  const loadPage = useCallback((page: number) => client.loadGroupPage(groupId, page), [client, groupId]);
  const history = useHistoryPages({ query, loadPage, initialError: historyError, olderError: historyError });
  // Seen while visible: the badge clears and the server's read mark follows each new message.
  const visible = useDocumentVisible();
  const newestId = history.messages?.at(-1)?.id;
  useEffect(() => {
    if (visible) void client.markGroupSeen(groupId);
  }, [client, groupId, visible, newestId]);
  const members = useMemo(() => new Map(group.members.map((m) => [m.id, m])), [group.members]);
  const typing = useTypingSignal({ groupId });
  const inline = useInlineErrors((frame) => frame.context === 'group' && frame.groupId === groupId);
  const notConnected = useNotConnected();
  const full = hasFullAccess(useSignedInUser());
  const uploads = useAttachmentUploads(`/api/groups/${encodeURIComponent(groupId)}/attachments`);

  const [notesOpen, setNotesOpen] = useState(false);
  const notesId = useId();
  const notesButton = useRef<HTMLButtonElement>(null);
  const closeNotes = () => {
    setNotesOpen(false);
    notesButton.current?.focus();
  };

  const send = (text: string) => {
    typing.stop();
    inline.clear();
    void client.run(writeGroupMessage, groupId, text);
  };

  return (
    <section className="chat" aria-label={`Group ${group.name}`}>
      <GroupHeader
        group={group}
        actions={
          <button
            ref={notesButton}
            type="button"
            className="button button--secondary button--small"
            aria-expanded={notesOpen}
            aria-controls={notesOpen ? notesId : undefined}
            onClick={() => (notesOpen ? closeNotes() : setNotesOpen(true))}
          >
            Notes
          </button>
        }
      />
      <MessageList
        label={`Messages in ${group.name}`}
        messages={history.messages ?? []}
        isOwn={(m) => m.from.id === client.userId}
        canLoadOlder={history.canLoadOlder}
        loadingOlder={history.loadingOlder}
        onLoadOlder={() => void history.loadOlder()}
        footer={<UploadRows uploads={uploads.uploads} />}
        empty={
          history.messages ? (
            <p className="message-list__empty">No messages yet. Start the conversation!</p>
          ) : null
        }
        renderMessage={(m) => <GroupMessageItem message={m} members={members} />}
      />
      {[history.error, inline.error, uploads.error, notConnected ? CHAT_MSG.socketNotConnected : null].map(
        (text, index) =>
          text ? (
            <p key={index} className="chat__error" role="alert">
              {text}
              <AccessRefusalLink text={text} />
            </p>
          ) : null,
      )}
      {/* The access policy: writing in a group is taking part. */}
      {full ? (
        <Composer
          maxHeight={CHAT.composerMaxHeightGroup}
          placeholder={`Message ${group.name}`}
          onSend={send}
          onKeystroke={typing.keystroke}
          onAttach={(file) => void uploads.start(file)}
        />
      ) : (
        <VerificationNotice />
      )}
      {notesOpen ? <GroupNotesDrawer id={notesId} groupId={groupId} onClose={closeNotes} /> : null}
    </section>
  );
}
