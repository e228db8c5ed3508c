import { useEffect } from 'react';
import { CONFESSION_MSG } from '@campus/protocol';
import { useCampusSync } from '../sync/sync-context';
import { POST_FAILED, type ErrorLine } from './confessions-api';
import type { QueuedWrites } from './queued-writes';

/**
 * The feed's share of refused outbox writes (the sync client has already undone them in the cache): an
 * error line, and a reload so the cards and counts are the server's again. A refused comment goes to the
 * comments panel that queued it when that panel is still open (`writes`); only the others come here.
 */
export function useWriteRefusals(
  writes: QueuedWrites,
  onRefused: (line: ErrorLine) => void,
  reload: () => Promise<void>,
) {
  const writer = useCampusSync();
  useEffect(
    () =>
      writer?.onMessageError((refusal) => {
        switch (refusal.context) {
          case 'confession_react':
            onRefused({ message: CONFESSION_MSG.reactionFailed });
            void reload();
            return;
          case 'confession_comment':
            void writes.claim(refusal).then((claimed) => {
              if (claimed) return;
              onRefused({ message: refusal.error || CONFESSION_MSG.commentFailed });
              void reload();
            });
            return;
          case 'confession_post':
            onRefused({ message: refusal.error || POST_FAILED });
            void reload();
            return;
          default:
            return;
        }
      }),
    [writer, writes, onRefused, reload],
  );
}
