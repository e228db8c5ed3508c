import { Avatar } from '../../components/Avatar';
import type { UserRef } from '@campus/protocol';
import { useCall } from './call-context';
import { CallControls } from './CallControls';
import { CallStatus } from './CallStatus';
import { personName } from './call-state';
import { StreamMedia } from './StreamMedia';

/** The audio call: the other person's avatar and name, Connecting or Live, the timer, the controls. */
export function AudioCallView({ other }: { other: UserRef }) {
  const { state } = useCall();
  return (
    <div className="call-audio">
      <Avatar user={other} size="lg" />
      <h1 className="call-audio__name">{personName(other)}</h1>
      <CallStatus connectedAt={state.connectedAt} />
      <StreamMedia kind="audio" stream={state.remoteStream} testId="remote-audio" />
      <CallControls />
    </div>
  );
}
