import { Icon } from '../../components/Icon';
import { useCall } from './call-context';

/** Mute, camera (video calls), the video fit toggle, and End call. */
export function CallControls({ fill, onToggleFill }: { fill?: boolean; onToggleFill?: () => void }) {
  const { state, toggleMute, toggleCamera, end } = useCall();
  return (
    <div className="call-controls" role="toolbar" aria-label="Call controls">
      <button
        type="button"
        className="call-control"
        aria-label={state.isMuted ? 'Unmute' : 'Mute'}
        data-on={state.isMuted}
        onClick={toggleMute}
        data-testid="call-mute"
      >
        <Icon name={state.isMuted ? 'micOff' : 'mic'} size={22} />
      </button>
      {state.callType === 'video' ? (
        <button
          type="button"
          className="call-control"
          aria-label={state.isCameraOff ? 'Camera on' : 'Camera off'}
          data-on={state.isCameraOff}
          onClick={toggleCamera}
          data-testid="call-camera"
        >
          <Icon name={state.isCameraOff ? 'videoOff' : 'video'} size={22} />
        </button>
      ) : null}
      {onToggleFill ? (
        <button
          type="button"
          className="call-control"
          aria-label={fill ? 'Fit video' : 'Fill screen'}
          data-on={fill}
          onClick={onToggleFill}
          data-testid="call-fit"
        >
          <Icon name={fill ? 'minimize' : 'maximize'} size={22} />
        </button>
      ) : null}
      <button
        type="button"
        className="call-control call-control--end"
        aria-label="End call"
        onClick={end}
        data-testid="call-end"
      >
        <Icon name="phoneOff" size={22} />
      </button>
    </div>
  );
}
