import { useEffect, useState } from 'react';
import type { MessageErrorFrame } from '@campus/protocol';
import { useSync } from '../sync/sync-context';

/** Refused writes that are not sends: nothing on screen shows them failed, so their reason is shown inline. */
const UNSHOWN_WRITES: ReadonlySet<string> = new Set(['chat-reaction', 'mark_messages_as_read']);

/**
 * The latest `message_error` this view should show inline. Refused sends (a mutation id, context
 * send_message / send_group_message) are not shown here: their message turns failed and its bubble shows
 * the reason. Refused reactions and read marks are undone quietly, so their reason is shown here.
 */
export function useInlineErrors(concerns: (frame: MessageErrorFrame) => boolean) {
  const client = useSync();
  const [error, setError] = useState<string | null>(null);
  const [filter] = useState(() => concerns);

  useEffect(
    () =>
      client.onMessageError((frame) => {
        if ((frame.mid === undefined || UNSHOWN_WRITES.has(frame.context)) && filter(frame))
          setError(frame.error);
      }),
    [client, filter],
  );

  return { error, clear: () => setError(null) };
}
