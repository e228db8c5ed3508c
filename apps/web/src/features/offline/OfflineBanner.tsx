import { useEffect, useState } from 'react';
import { CHAT_MSG } from '@campus/protocol';
import { useSyncState } from '../sync/sync-context';
import './offline.css';

/** The first connection takes a moment: showing the banner during it would only flash. */
export const OFFLINE_BANNER_GRACE_MS = 1500;

/**
 * The spec's connection banner. The composer deliberately stays enabled while offline: messages wait in the
 * outbox as pending and go out once the connection is back.
 */
export function OfflineBanner() {
  const { status, refusedCode } = useSyncState();
  const [graceOver, setGraceOver] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), OFFLINE_BANNER_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);
  // A refused session has its own message (expired: back to login; outdated: reload).
  const show = graceOver && status !== 'online' && refusedCode === undefined;
  // The live region stays in the page so that screen readers announce the text when it appears.
  return (
    <div className="offline-banner" role="status" data-visible={show}>
      {show ? (
        <p className="offline-banner__text">
          <span className="offline-banner__dot" aria-hidden="true" />
          <span>{CHAT_MSG.notConnectedBanner}</span>
        </p>
      ) : null}
    </div>
  );
}
