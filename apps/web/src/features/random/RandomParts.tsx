import { useContext } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ACCESS_MSG, RANDOM, RANDOM_MSG, type FocusedFilters } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { CallDepsContext } from '../calls/call-deps';
import { formatDuration } from '../calls/call-state';
import { useCallClock } from '../calls/useCallClock';
import { PROFILE_EDIT_STATE } from '../profile/profile-route';
import { filtersSummary } from './filters-summary';
import type { RandomController } from './random-controller';
import { endedText, type RandomState } from './random-state';

/** Back to Talk home, at the top of every random and focused screen. */
export function BackToTalk() {
  const navigate = useNavigate();
  return (
    <button type="button" className="button button--ghost random-back" onClick={() => void navigate('/talk')}>
      <Icon name="arrowLeft" size={18} />
      <span>Back to Talk</span>
    </button>
  );
}

/** Focused talk: the screen says the filters apply. */
export function FocusedBadge({ filters }: { filters: FocusedFilters | null }) {
  if (!filters) return null;
  return (
    <p className="random-focused" data-testid="random-focused">
      <Icon name="sparkles" size={16} />
      <span>Focused: {filtersSummary(filters)}</span>
    </p>
  );
}

/** Focused talk: how many of the chosen filter groups the partner matches (the search may have widened). */
export function MatchedNote({ state }: { state: RandomState }) {
  const matched = state.matched;
  if (!state.filters || !matched || matched.chosen === 0) return null;
  return (
    <p className="random-focused" data-testid="random-matched">
      <Icon name="sparkles" size={16} />
      <span>
        Matches {matched.satisfied} of your {matched.chosen} {matched.chosen === 1 ? 'filter' : 'filters'}
      </span>
    </p>
  );
}

/** Whole seconds since `since` (ms, this device's clock), ticking every second. */
export function useSecondsSince(since: number | null): number {
  const { now } = useContext(CallDepsContext);
  return useCallClock(since, now).seconds;
}

/**
 * finding: the 60 s countdown in the avatar and 'Finding your match…' (or the screen's own text), the
 * spec's fallbacks for the partner not known yet, the widening note, and once the countdown ran out
 * 'No one is free right now.' with Keep waiting (stays queued) and Cancel.
 */
export function FindingPanel({
  state,
  controller,
  text = RANDOM_MSG.findingMatch,
}: {
  state: RandomState;
  controller: RandomController;
  text?: string;
}) {
  const waited = useSecondsSince(state.findingSince);
  const left = Math.max(0, RANDOM.findingSeconds - waited);
  return (
    <div className="random-finding" data-testid="random-finding">
      <div className="random-finding__ring">
        <span className="random-finding__count" role="timer" aria-label="Finding countdown">
          {state.keptWaiting ? formatDuration(waited) : left}
        </span>
      </div>
      {state.noOneFound ? (
        <div className="random-none" role="alert">
          <p className="random-none__title">{RANDOM_MSG.noOneFound}</p>
          <div className="random-actions">
            <button type="button" className="button button--primary" onClick={() => controller.keepWaiting()}>
              {RANDOM_MSG.keepWaiting}
            </button>
            <button type="button" className="button button--secondary" onClick={() => controller.cancel()}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="random-finding__text" role="status">
            {text}
          </p>
          <p className="random-meta">
            <span>{RANDOM_MSG.fallbackCollege}</span>
            <span>{RANDOM_MSG.fallbackCourse}</span>
          </p>
          <button type="button" className="button button--secondary" onClick={() => controller.cancel()}>
            Cancel
          </button>
        </>
      )}
      {state.widened ? (
        <p className="random-note" role="note">
          {RANDOM_MSG.widened}
        </p>
      ) : null}
    </div>
  );
}

/** A refusal or failure, with the way out when there is one (upload the ID, complete the profile). */
export function RandomError({ state }: { state: RandomState }) {
  if (!state.error) return null;
  return (
    <div className="random-error" role="alert" data-testid="random-error">
      <p>{state.error}</p>
      {state.errorCode === 'verification' ? (
        <Link className="access-refusal__link" to={ACCESS_MSG.uploadPath}>
          Upload your student ID
        </Link>
      ) : null}
      {state.errorCode === 'profile' ? (
        <Link className="access-refusal__link" to="/profile" state={PROFILE_EDIT_STATE}>
          Complete your profile
        </Link>
      ) : null}
    </div>
  );
}

/** How the room ended, when there is something to say (the partner left, time is up, the connection…). */
export function RoomEndedNote({ state }: { state: RandomState }) {
  const text = endedText(state.ended);
  if (!text) return null;
  return (
    <p className="random-note" role="status" data-testid="random-ended">
      {text}
    </p>
  );
}

/** The server's answer to the last Add Friend, Block or Report. */
export function ActionResult({ state }: { state: RandomState }) {
  const result = state.actionResult;
  return (
    <p
      className={`random-action-result${result && !result.ok ? ' random-action-result--error' : ''}`}
      role="status"
      data-testid="random-action-result"
    >
      {result?.message ?? ''}
    </p>
  );
}

/** 'free left': the server's deadline counted down (mm:ss). */
export function FreeLeft({ endsAt }: { endsAt: number | null }) {
  const { now } = useContext(CallDepsContext);
  // Ticks with the room's clock (useCallClock re-renders every second from the room's start).
  useCallClock(endsAt, now);
  if (endsAt === null) return null;
  const left = Math.max(0, Math.ceil((endsAt - now()) / 1000));
  return (
    <span
      className="random-free-left"
      role="timer"
      aria-label="Free time left"
      data-testid="random-free-left"
    >
      {formatDuration(left)} {RANDOM_MSG.freeLeft}
    </span>
  );
}

/** The room's elapsed time (mm:ss). */
export function Elapsed({ since }: { since: number | null }) {
  const seconds = useSecondsSince(since);
  return (
    <span className="random-elapsed" role="timer" aria-label="Elapsed time" data-testid="random-elapsed">
      {formatDuration(seconds)}
    </span>
  );
}

/**
 * The spec's overlay while the way into a room is being prepared: 'Finding someone for you...' (or, for
 * focused talk, 'Finding your perfect match...'). Also shown by the options screens as they navigate.
 */
export function FindingOverlay({ text, onCancel }: { text: string; onCancel?: () => void }) {
  return (
    <div className="random-overlay" role="status" aria-live="polite" data-testid="random-overlay">
      <div className="random-overlay__panel">
        <Spinner />
        <p>{text}</p>
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </div>
  );
}

/**
 * While the microphone or camera is asked for and the search starts; with Cancel while it waits for the
 * connection to come up (which can take seconds on a dropping network).
 */
export function StartingOverlay({ state, controller }: { state: RandomState; controller: RandomController }) {
  if (state.phase !== 'starting') return null;
  return (
    <FindingOverlay
      text={state.filters ? RANDOM_MSG.findingPerfect : RANDOM_MSG.findingSomeone}
      onCancel={state.awaitingConnection ? () => controller.cancel() : undefined}
    />
  );
}
