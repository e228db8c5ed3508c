import { useEffect, useState } from 'react';
import { CALL_MSG } from '@campus/protocol';

/**
 * The in-call timer: whole seconds since the media connected, ticking every second. The status is
 * 'Connecting' until time passes 0, then 'Live' (spec 000, Call).
 */
export function useCallClock(connectedAt: number | null, now: () => number) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (connectedAt === null) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [connectedAt]);
  const seconds = connectedAt === null ? 0 : Math.max(0, Math.floor((now() - connectedAt) / 1000));
  return { seconds, status: seconds > 0 ? CALL_MSG.live : CALL_MSG.connecting };
}
