import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { CALL_MSG } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AudioCallView } from './AudioCallView';
import { useCall } from './call-context';
import { otherParty, personName } from './call-state';
import { VideoCallView } from './VideoCallView';

/** Back where the user came from; to Talk when /call was the first page (a notification click). */
function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate('/talk', { replace: true });
  };
}

/**
 * /call: the call in progress (audio or video view), the call still ringing (its prompt or overlay is on
 * top), or 'Unable to load call data' with Go Back when there is no call. When the call ends here, the
 * screen goes back (what the overlay has to say shows over the page before).
 */
export function CallScreen() {
  useDocumentTitle('Call');
  const { state } = useCall();
  const goBack = useGoBack();
  const goBackRef = useRef(goBack);
  useEffect(() => {
    goBackRef.current = goBack;
  });
  const hadCall = useRef(false);
  const live = state.phase === 'active' || state.phase === 'incoming' || state.phase === 'outgoing';

  useEffect(() => {
    if (live) hadCall.current = true;
    else if (hadCall.current) {
      hadCall.current = false;
      goBackRef.current();
    }
  }, [live]);

  const other = otherParty(state);
  if (!live || !other) {
    return (
      <section className="page call-missing" aria-labelledby="page-title">
        <h1 className="page__title" id="page-title">
          {CALL_MSG.unableToLoad}
        </h1>
        <button type="button" className="button button--primary" onClick={goBack}>
          {CALL_MSG.goBack}
        </button>
      </section>
    );
  }
  if (state.phase !== 'active') {
    return (
      <section className="page call-waiting" aria-label="Call">
        <Avatar user={other} size="lg" />
        <h1 className="call-audio__name">{personName(other)}</h1>
        <p>{CALL_MSG.callKind(state.callType)}</p>
      </section>
    );
  }
  return (
    <section className={`call-screen call-screen--${state.callType}`} aria-label="Call">
      {state.callType === 'video' ? <VideoCallView other={other} /> : <AudioCallView other={other} />}
    </section>
  );
}
