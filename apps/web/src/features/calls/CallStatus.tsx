import { useContext } from 'react';
import { CallDepsContext } from './call-deps';
import { formatDuration } from './call-state';
import { useCallClock } from './useCallClock';

/** 'Connecting' or 'Live', and the mm:ss timer. */
export function CallStatus({ connectedAt }: { connectedAt: number | null }) {
  const { now } = useContext(CallDepsContext);
  const { seconds, status } = useCallClock(connectedAt, now);
  return (
    <p className="call-status">
      <span className="call-status__state" data-testid="call-status" data-live={status === 'Live'}>
        {status}
      </span>
      <span className="call-status__timer" role="timer" aria-label="Call duration" data-testid="call-timer">
        {formatDuration(seconds)}
      </span>
    </p>
  );
}
