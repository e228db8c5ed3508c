import type { ReactNode } from 'react';
import { shortTime, type AttachmentType, type MessageStatus, type UserRef } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { AccessRefusalLink } from '../upload/AccessRefusalLink';
import { MessageAttachment } from './MessageAttachment';
import { MessageText } from './MessageText';
import type { ReactionSummary } from './reactions';
import { StatusTicks } from './StatusTicks';
import './message.css';

/** What a bubble shows of a direct or a group message. */
export interface BubbleMessage {
  id: string;
  content: string;
  timestamp: string;
  status?: MessageStatus;
  attachmentUrl: string | null;
  attachmentType: AttachmentType | null;
  error?: string;
}

export interface Quote {
  author: string;
  text: string;
}

interface Props {
  message: BubbleMessage;
  own: boolean;
  /** Groups: the sender of someone else's message, shown with name and avatar. */
  sender?: UserRef;
  quote?: Quote | null;
  reactions?: readonly ReactionSummary[];
  /** Direct chats show sent/delivered/read; groups only sending. */
  ticks: 'full' | 'sending-only';
  actions?: ReactNode;
  onRetry: () => void;
  onDiscard: () => void;
}

/** The bracket text of an attachment-only message is the attachment's label: shown once, as the link. */
function isOnlyAttachmentLabel(content: string): boolean {
  return /^\[(?:Image|File):[^\]]*\]$/.test(content.trim());
}

export function MessageBubble({
  message,
  own,
  sender,
  quote,
  reactions,
  ticks,
  actions,
  onRetry,
  onDiscard,
}: Props) {
  const status = message.status;
  const showText = !(message.attachmentUrl && isOnlyAttachmentLabel(message.content));
  const showTicks = own && status && (ticks === 'full' || status === 'sending');
  const senderName = sender ? `${sender.firstName} ${sender.lastName}`.trim() : '';

  return (
    <div
      className={`message${own ? ' message--own' : ''}${status === 'failed' ? ' message--failed' : ''}`}
      role="article"
    >
      {sender ? <Avatar user={sender} size="sm" /> : null}
      <div className="message__column">
        {sender ? <span className="message__sender">{senderName || 'Unknown user'}</span> : null}
        <div className="message__bubble" data-message-id={message.id}>
          {quote ? (
            <blockquote className="message__quote">
              <span className="message__quote-author">{quote.author}</span>
              <span className="message__quote-text">{quote.text}</span>
            </blockquote>
          ) : null}
          {message.attachmentUrl ? (
            <MessageAttachment
              attachmentUrl={message.attachmentUrl}
              attachmentType={message.attachmentType}
              content={message.content}
            />
          ) : null}
          {showText ? <MessageText text={message.content} /> : null}
          <span className="message__meta">
            <time dateTime={message.timestamp}>{shortTime(message.timestamp)}</time>
            {showTicks ? <StatusTicks status={status} /> : null}
          </span>
        </div>
        {reactions && reactions.length > 0 ? (
          <ul className="message__reactions" aria-label="Reactions">
            {reactions.map((reaction) => (
              <li
                key={reaction.emoji}
                className={`reaction${reaction.mine ? ' reaction--mine' : ''}`}
                aria-label={`${reaction.emoji} ${reaction.count}${reaction.mine ? ', including you' : ''}`}
              >
                <span aria-hidden="true">{reaction.emoji}</span>
                <span aria-hidden="true">{reaction.count}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {status === 'failed' ? (
          <div className="message__failure" role="alert">
            <span>{message.error ?? 'Not sent.'}</span>
            <AccessRefusalLink text={message.error} />
            <button type="button" className="link-button" onClick={onRetry}>
              Retry
            </button>
            <button type="button" className="link-button" onClick={onDiscard}>
              Discard
            </button>
          </div>
        ) : null}
      </div>
      {actions}
    </div>
  );
}
