import { Icon } from '../../components/Icon';
import type { RandomController } from './random-controller';
import { partnerCollege, partnerCourse, type RandomState } from './random-state';
import { Elapsed, FreeLeft } from './RandomParts';

/** The call screens' clocks: the room's elapsed time and the free time the server's deadline leaves. */
export function RoomClock({ state }: { state: RandomState }) {
  return (
    <p className="random-clock">
      <Elapsed since={state.startedAt} />
      <FreeLeft endsAt={state.endsAt} />
    </p>
  );
}

/** The partner's college and course (or the spec's fallbacks while they are not known). */
export function PartnerMeta({ state }: { state: RandomState }) {
  return (
    <p className="random-meta">
      <span data-testid="random-partner-college">{partnerCollege(state.partner)}</span>
      <span data-testid="random-partner-course">{partnerCourse(state.partner)}</span>
    </p>
  );
}

/** Mute / Unmute of the call screens; pressed while muted. */
export function MuteButton({ state, controller }: { state: RandomState; controller: RandomController }) {
  return (
    <button
      type="button"
      className="call-control"
      aria-label={state.isMuted ? 'Unmute' : 'Mute'}
      aria-pressed={state.isMuted}
      data-on={state.isMuted}
      onClick={() => controller.toggleMute()}
      data-testid="random-mute"
    >
      <Icon name={state.isMuted ? 'micOff' : 'mic'} size={22} />
    </button>
  );
}
