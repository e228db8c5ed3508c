import { replyPreview } from '@campus/protocol';
import { writeDiscard, writeReaction, writeRetry, type LocalDirectMessage } from '@campus/sync';
import { useSync } from '../sync/sync-context';
import { MessageActions } from './MessageActions';
import { MessageBubble } from './MessageBubble';
import { myReaction, nextReaction, summarizeReactions } from './reactions';

interface Props {
  message: LocalDirectMessage;
  replied: LocalDirectMessage | undefined;
  partnerName: string;
  onReply: (message: LocalDirectMessage) => void;
}

/** A direct message with its quote, reactions, ticks and actions. */
export function DirectMessageItem({ message, replied, partnerName, onReply }: Props) {
  const client = useSync();
  const own = message.from.id === client.userId;
  const current = myReaction(message.reactions, client.userId);
  const authorOf = (m: LocalDirectMessage) => (m.from.id === client.userId ? 'You' : partnerName);
  const quote = message.replyTo
    ? replied
      ? { author: authorOf(replied), text: replyPreview(replied.content) }
      : { author: '', text: 'Original message not loaded' }
    : null;
  const canAct = message.status !== 'failed';

  return (
    <MessageBubble
      message={message}
      own={own}
      quote={quote}
      reactions={summarizeReactions(message.reactions, client.userId)}
      ticks="full"
      actions={
        canAct ? (
          <MessageActions
            current={current}
            onReply={() => onReply(message)}
            onReact={(emoji) =>
              void client.run(writeReaction, message.id, nextReaction(current, emoji), message.peerId)
            }
          />
        ) : null
      }
      onRetry={() => void client.run(writeRetry, message.id)}
      onDiscard={() => void client.run(writeDiscard, message.id)}
    />
  );
}
