import { RANDOM_MSG } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import type { RandomController } from './random-controller';
import type { RandomState } from './random-state';
import { MatchedNote } from './RandomParts';
import { MuteButton, PartnerMeta, RoomClock } from './RoomParts';

/** In the video room: the partner's college and course, the clocks, Reveal / Blur, Mute and End Call. */
export function VideoRoomControls({
  state,
  controller,
}: {
  state: RandomState;
  controller: RandomController;
}) {
  const { reveal } = state;
  const hint = reveal.both ? null : reveal.partner ? RANDOM_MSG.partnerRevealed : RANDOM_MSG.blurredHint;
  return (
    <div className="random-room" data-testid="random-room">
      <PartnerMeta state={state} />
      <MatchedNote state={state} />
      <RoomClock state={state} />
      {hint ? (
        <p className="random-note" role="status" data-testid="random-reveal-hint">
          {hint}
        </p>
      ) : null}
      <div className="call-controls" role="toolbar" aria-label="Call controls">
        <button
          type="button"
          className="button button--secondary random-reveal"
          aria-pressed={reveal.mine}
          onClick={() => controller.setReveal(!reveal.mine)}
          data-testid="random-reveal"
        >
          <Icon name={reveal.mine ? 'eyeOff' : 'eye'} size={18} />
          <span>{reveal.mine ? RANDOM_MSG.blurAgain : RANDOM_MSG.reveal}</span>
        </button>
        <MuteButton state={state} controller={controller} />
        <button
          type="button"
          className="button button--primary button--danger"
          onClick={() => controller.end()}
          data-testid="random-end"
        >
          <Icon name="phoneOff" size={18} />
          <span>{RANDOM_MSG.endCall}</span>
        </button>
      </div>
      <p className="random-note">{RANDOM_MSG.beKind}</p>
    </div>
  );
}
