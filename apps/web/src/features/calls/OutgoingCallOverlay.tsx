import { useId } from 'react';
import { CALL_MSG } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { CallDialog } from './CallDialog';
import { useCall } from './call-context';
import { otherParty, personName } from './call-state';

/**
 * The spec's outgoing call overlay: 'Calling {first} {last}…', the call type, 'Call Rejected' or an error,
 * and Cancel. A call that ended with something to say stays here until closed.
 */
export function OutgoingCallOverlay() {
  const { state, end } = useCall();
  const statusId = useId();
  const other = otherParty(state);
  const calling = state.phase === 'outgoing';
  if (!other || (!calling && state.phase !== 'ended')) return null;
  return (
    <CallDialog
      testId="call-overlay"
      title={calling ? CALL_MSG.calling(other.firstName, other.lastName) : personName(other)}
      describedBy={statusId}
      onEscape={end}
    >
      <div className="call-modal__body">
        <span className={calling ? 'call-modal__avatar call-modal__avatar--pulse' : 'call-modal__avatar'}>
          <Avatar user={other} size="lg" />
        </span>
        <p className="call-modal__kind">
          <Icon name={state.callType === 'video' ? 'video' : 'phone'} size={18} />
          <span>{CALL_MSG.callKind(state.callType)}</span>
        </p>
        <div id={statusId} role="status" aria-live="polite" data-testid="call-overlay-status">
          {state.callRejected ? <p className="call-modal__rejected">{CALL_MSG.rejected}</p> : null}
          {state.error ? <p className="call-modal__error">{state.error}</p> : null}
        </div>
      </div>
      <div className="call-modal__actions">
        <button
          type="button"
          className={calling ? 'button button--danger' : 'button button--secondary'}
          onClick={end}
          data-autofocus
        >
          {calling ? <Icon name="phoneOff" size={18} /> : null}
          <span>{calling ? 'Cancel' : 'Close'}</span>
        </button>
      </div>
    </CallDialog>
  );
}
