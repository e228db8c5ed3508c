import { useId } from 'react';
import { CALL_MSG } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { CallDialog } from './CallDialog';
import { useCall } from './call-context';
import { personName } from './call-state';

/** A call ringing on this device: who, audio or video, Accept or Reject (Escape rejects). */
export function IncomingCallPrompt() {
  const { state, accept, reject } = useCall();
  const kindId = useId();
  const caller = state.caller;
  if (state.phase !== 'incoming' || !caller) return null;
  const accepting = state.callAccepted;
  return (
    <CallDialog
      testId="incoming-call"
      role="alertdialog"
      title={personName(caller)}
      describedBy={kindId}
      onEscape={reject}
      focusTitle
    >
      <div className="call-modal__body">
        <span className="call-modal__avatar call-modal__avatar--pulse">
          <Avatar user={caller} size="lg" />
        </span>
        <p className="call-modal__kind" id={kindId}>
          <Icon name={state.callType === 'video' ? 'video' : 'phone'} size={18} />
          <span>Incoming {CALL_MSG.callKind(state.callType)}</span>
        </p>
        {accepting ? (
          <p className="call-modal__hint" role="status">
            {CALL_MSG.connecting}…
          </p>
        ) : null}
      </div>
      <div className="call-modal__actions">
        <button type="button" className="button button--danger" onClick={reject}>
          <Icon name="phoneOff" size={18} />
          <span>Reject</span>
        </button>
        <button type="button" className="button call-accept" onClick={accept} disabled={accepting}>
          <Icon name={state.callType === 'video' ? 'video' : 'phone'} size={18} />
          <span>Accept</span>
        </button>
      </div>
    </CallDialog>
  );
}
