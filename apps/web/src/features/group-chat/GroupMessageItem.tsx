import type { UserRef } from '@campus/protocol';
import { writeDiscard, writeRetry, type LocalGroupMessage } from '@campus/sync';
import { MessageBubble } from '../chat/MessageBubble';
import { useSync } from '../sync/sync-context';

/** A group message: others' with their name and avatar; own ones show only sending and failed. */
export function GroupMessageItem({
  message,
  members,
}: {
  message: LocalGroupMessage;
  members: ReadonlyMap<string, UserRef>;
}) {
  const client = useSync();
  const own = message.from.id === client.userId;
  return (
    <MessageBubble
      message={message}
      own={own}
      sender={own ? undefined : (members.get(message.from.id) ?? message.from)}
      ticks="sending-only"
      onRetry={() => void client.run(writeRetry, message.id)}
      onDiscard={() => void client.run(writeDiscard, message.id)}
    />
  );
}
