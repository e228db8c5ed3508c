import { useEffect } from 'react';
import { CONFESSION_MSG } from '@campus/protocol';
import { useSync } from '../sync/sync-context';
import { POST_FAILED, refusalLine, type ErrorLine } from './confessions-api';
import type { QueuedWrites } from './queued-writes';
import { confessionRefusalsOf } from './refusal-inbox';

/**
 * The feed's share of refused outbox writes. The sync client has already undone them in the cache (the
 * cards show that by themselves); here they get their red line, and the feed loads again so its counts are
 * the server's. A refused comment goes to the comments panel that queued it while that panel is still open
 * (`writes`); only the others come here. Those refused while the feed was closed come first (refusal-inbox).
 */
export function useWriteRefusals(
  writes: QueuedWrites,
  onRefused: (line: ErrorLine) => void,
  reload: () => Promise<void>,
) {
  const client = useSync();
  useEffect(
    () =>
      confessionRefusalsOf(client).listen((refusal) => {
        switch (refusal.context) {
          case 'confession_react':
            onRefused(
              refusal.code === 'verificationRequired'
                ? refusalLine(refusal, CONFESSION_MSG.reactionFailed, false)
                : { message: CONFESSION_MSG.reactionFailed },
            );
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
            onRefused(refusalLine(refusal, POST_FAILED, true));
            void reload();
            return;
          case 'confession_delete':
            onRefused(refusalLine(refusal, CONFESSION_MSG.deleteFailed, false));
            return;
          default:
            return;
        }
      }),
    [client, writes, onRefused, reload],
  );
}
