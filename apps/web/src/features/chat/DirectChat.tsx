import { useCallback, useEffect, useMemo, useState } from 'react';
import { CHAT, CHAT_MSG, UNKNOWN_USER, hasFullAccess } from '@campus/protocol';
import { writeDirectMessage, type LocalDirectMessage } from '@campus/sync';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSignedInUser } from '../session/session-context';
import { useSync } from '../sync/sync-context';
import { AccessRefusalLink } from '../upload/AccessRefusalLink';
import { VerificationNotice } from '../upload/VerificationNotice';
import { ChatHeader } from './ChatHeader';
import { Composer } from './Composer';
import { DirectMessageItem } from './DirectMessageItem';
import { directWindow } from './chat-window';
import { MessageList } from './MessageList';
import { ReplyBar } from './ReplyBar';
import { UploadRows } from './UploadRows';
import { useAttachmentUploads } from './useAttachmentUploads';
import { useChatPartner } from './useChatPartner';
import { historyFailureText, useHistoryPages } from './useHistoryPages';
import { useInlineErrors } from './useInlineErrors';
import { useMarkRead } from './useMarkRead';
import { useTypingSignal } from './useTypingSignal';
import './chat.css';

const initialError = historyFailureText(
  [CHAT_MSG.initialMessagesFailed, CHAT_MSG.historyError],
  CHAT_MSG.historyError,
);
const olderError = historyFailureText(
  [CHAT_MSG.olderMessagesFailed, CHAT_MSG.olderMessagesError],
  CHAT_MSG.olderMessagesError,
);

/** One-to-one chat with `partnerId`, read from the local cache and written through the sync client. */
export function DirectChat({ partnerId }: { partnerId: string }) {
  const client = useSync();
  const { db } = client;
  const partner = useChatPartner(partnerId);
  const partnerName = partner?.name || 'Unknown user';
  useDocumentTitle(partner?.name || 'Chat');

  useEffect(() => client.joinChat(partnerId), [client, partnerId]);

  const query = useCallback((limit: number) => directWindow(db, partnerId, limit), [db, partnerId]);
  const loadPage = useCallback((page: number) => client.loadDirectPage(partnerId, page), [client, partnerId]);
  const history = useHistoryPages({ query, loadPage, initialError, olderError });
  const messages = history.messages;
  // The access policy: an account that is not verified yet may answer, but not write first.
  const mayWrite =
    hasFullAccess(useSignedInUser()) || !messages || messages.some((m) => m.from.id === partnerId);
  useMarkRead(partnerId, messages);

  const byId = useMemo(() => new Map((messages ?? []).map((m) => [m.id, m])), [messages]);
  const [replyTo, setReplyTo] = useState<LocalDirectMessage | null>(null);
  const typing = useTypingSignal({ roomId: partnerId });
  const inline = useInlineErrors((frame) => frame.context !== 'group' && !frame.groupId);
  const uploads = useAttachmentUploads(`/api/chat/${encodeURIComponent(partnerId)}/attachments`);

  const send = (text: string) => {
    typing.stop();
    inline.clear();
    void client.run(
      writeDirectMessage,
      partner?.ref ?? { ...UNKNOWN_USER, id: partnerId },
      text,
      replyTo?.id ?? null,
    );
    setReplyTo(null);
  };

  return (
    <section className="chat" aria-label={`Chat with ${partnerName}`}>
      <ChatHeader partnerId={partnerId} partner={partner} />
      <MessageList
        label={`Messages with ${partnerName}`}
        messages={messages ?? []}
        isOwn={(m) => m.from.id === client.userId}
        canLoadOlder={history.canLoadOlder}
        loadingOlder={history.loadingOlder}
        onLoadOlder={() => void history.loadOlder()}
        footer={<UploadRows uploads={uploads.uploads} />}
        empty={messages ? <p className="message-list__empty">No messages yet. Say hi!</p> : null}
        renderMessage={(m) => (
          <DirectMessageItem
            message={m}
            replied={m.replyTo ? byId.get(m.replyTo) : undefined}
            partnerName={partnerName}
            onReply={setReplyTo}
          />
        )}
      />
      {[history.error, inline.error, uploads.error].map((text, index) =>
        text ? (
          <p key={index} className="chat__error" role="alert">
            {text}
            <AccessRefusalLink text={text} />
          </p>
        ) : null,
      )}
      {replyTo ? (
        <ReplyBar
          author={replyTo.from.id === client.userId ? 'yourself' : partnerName}
          content={replyTo.content}
          onClose={() => setReplyTo(null)}
        />
      ) : null}
      {mayWrite ? (
        <Composer
          maxHeight={CHAT.composerMaxHeightDirect}
          placeholder={`Message ${partner?.ref.firstName || partnerName}`}
          onSend={send}
          onKeystroke={typing.keystroke}
          onAttach={(file) => void uploads.start(file)}
        />
      ) : (
        <VerificationNotice />
      )}
    </section>
  );
}
