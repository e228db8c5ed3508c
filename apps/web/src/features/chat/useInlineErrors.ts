import { useEffect, useState } from 'react';
import type { MessageErrorFrame } from '@campus/protocol';
import { useSync } from '../sync/sync-context';

/**
 * The latest `message_error` this view should show inline. Rejected writes (those with a mutation id) are
 * not shown here: they mark their message failed, and the bubble shows the reason.
 */
export function useInlineErrors(concerns: (frame: MessageErrorFrame) => boolean) {
  const client = useSync();
  const [error, setError] = useState<string | null>(null);
  const [filter] = useState(() => concerns);

  useEffect(
    () =>
      client.onMessageError((frame) => {
        if (frame.mid === undefined && filter(frame)) setError(frame.error);
      }),
    [client, filter],
  );

  return { error, clear: () => setError(null) };
}
