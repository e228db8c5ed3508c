import { useEffect, useState } from 'react';
import { useSyncState } from '../sync/sync-context';
import { OFFLINE_BANNER_GRACE_MS } from './OfflineBanner';

/** True while the realtime connection is not online, after the offline banner's grace (no flash on load). */
export function useNotConnected(): boolean {
  const { status } = useSyncState();
  const [graceOver, setGraceOver] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), OFFLINE_BANNER_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);
  return graceOver && status !== 'online';
}
