import { Link, useLocation } from 'react-router-dom';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { useCall } from './call-context';
import { CallStatus } from './CallStatus';
import { otherParty, personName } from './call-state';
import { StreamMedia } from './StreamMedia';

/**
 * A call in progress while the student is on another screen: the other side stays audible (the call
 * screen's media elements are gone), and the bar says who it is with, how long, and offers the way back
 * and End. Nothing on /call itself, which shows the call whole.
 */
export function OngoingCallBar() {
  const { state, end } = useCall();
  const { pathname } = useLocation();
  const other = otherParty(state);
  if (state.phase !== 'active' || !other || pathname === '/call') return null;
  return (
    <aside className="call-bar" aria-label="Call in progress">
      <StreamMedia kind="audio" stream={state.remoteStream} testId="call-bar-audio" />
      <Avatar user={other} size="sm" />
      <span className="call-bar__name">{personName(other)}</span>
      <CallStatus connectedAt={state.connectedAt} />
      <Link className="button button--primary button--small" to="/call">
        Return to call
      </Link>
      <button type="button" className="button button--danger button--small" onClick={end}>
        <Icon name="phoneOff" size={16} />
        End call
      </button>
    </aside>
  );
}
