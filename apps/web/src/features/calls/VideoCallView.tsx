import { useState } from 'react';
import { CALL, type UserRef } from '@campus/protocol';
import { useCall } from './call-context';
import { CallControls } from './CallControls';
import { CallStatus } from './CallStatus';
import { personName } from './call-state';
import { StreamMedia } from './StreamMedia';
import { useAutoHide } from './useAutoHide';

/**
 * The video call: the other person's video (fit or fill), a small muted preview of one's own, and controls
 * that fade out after CALL.controlsHideMs without pointer or keyboard activity.
 */
export function VideoCallView({ other }: { other: UserRef }) {
  const { state } = useCall();
  const [fill, setFill] = useState(false);
  const controls = useAutoHide(CALL.controlsHideMs);
  const name = personName(other);
  return (
    <div
      className="call-video"
      data-controls={controls.visible ? 'shown' : 'hidden'}
      onPointerMove={controls.show}
      onPointerDown={controls.show}
      onFocus={controls.show}
    >
      <StreamMedia
        kind="video"
        stream={state.remoteStream}
        className={`call-video__remote call-video__remote--${fill ? 'fill' : 'fit'}`}
        testId="remote-video"
        label={`${name}'s video`}
      />
      <StreamMedia
        kind="video"
        stream={state.localStream}
        muted
        className="call-video__local"
        testId="local-video"
        label="Your video"
      />
      <div className="call-video__top">
        <h1 className="call-video__name">{name}</h1>
        <CallStatus connectedAt={state.connectedAt} />
      </div>
      {/* Faded out, not removed: a keyboard or screen reader user still reaches them (focus shows them). */}
      <div className="call-video__bottom" data-testid="call-controls">
        <CallControls fill={fill} onToggleFill={() => setFill((v) => !v)} />
      </div>
    </div>
  );
}
