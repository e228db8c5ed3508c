import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../components/Icon';
import type { RandomController } from './random-controller';
import type { RandomState } from './random-state';
import {
  ActionResult,
  BackToTalk,
  FindingPanel,
  FocusedBadge,
  RandomError,
  RoomEndedNote,
  StartingOverlay,
} from './RandomParts';

/**
 * The frame every random room screen (audio, video, chat) shares: Back to Talk, the title, the Focused
 * badge, the refusal, the screen's own content, and the overlay while the room is being prepared.
 */
export function RandomScreen({
  title,
  state,
  controller,
  children,
}: {
  title: ReactNode;
  state: RandomState;
  controller: RandomController;
  children: ReactNode;
}) {
  return (
    <section className="page random" aria-labelledby="page-title">
      <header className="random__header">
        <BackToTalk />
        <h1 className="page__title" id="page-title">
          {title}
        </h1>
        <FocusedBadge filters={state.filters} />
      </header>
      <RandomError state={state} />
      {children}
      <StartingOverlay state={state} controller={controller} />
    </section>
  );
}

/**
 * The phase switch of a random screen: idle (also while starting), finding, the room, and after it, with
 * the server's answer to the last Add Friend, Block or Report below the room and the post panel.
 */
export function RandomStage({
  state,
  controller,
  idle,
  findingText,
  room,
  post,
}: {
  state: RandomState;
  controller: RandomController;
  idle: ReactNode;
  /** The finding panel's text when the screen has its own ('Finding a random user…'). */
  findingText?: string;
  room: ReactNode;
  /** Left out by the video screen, whose post-call sheet is a dialog showing the answer itself. */
  post?: ReactNode;
}) {
  const { phase } = state;
  const showsResult = phase === 'connected' || (phase === 'post' && post !== undefined);
  return (
    <div className="random-stage">
      {phase === 'idle' || phase === 'starting' ? idle : null}
      {phase === 'finding' ? <FindingPanel state={state} controller={controller} text={findingText} /> : null}
      {phase === 'connected' ? room : null}
      {phase === 'post' ? post : null}
      {showsResult ? <ActionResult state={state} /> : null}
    </div>
  );
}

/**
 * idle: the screen's icon, heading and text when it has them, how the last room ended, and Start, kept
 * disabled while starting so a second press cannot queue twice.
 */
export function IdlePanel({
  state,
  controller,
  icon,
  title,
  text,
  startLabel,
}: {
  state: RandomState;
  controller: RandomController;
  icon?: IconName;
  title?: string;
  text?: string;
  /** The Start button's content (the call screens add an icon). */
  startLabel: ReactNode;
}) {
  return (
    <div className="random-idle">
      {icon ? (
        <span className="random-idle__icon" aria-hidden="true">
          <Icon name={icon} size={32} />
        </span>
      ) : null}
      {title ? <h2 className="random-idle__title">{title}</h2> : null}
      {text ? <p className="random-idle__text">{text}</p> : null}
      <RoomEndedNote state={state} />
      <button
        type="button"
        className="button button--primary random-start"
        onClick={() => void controller.start()}
        disabled={state.phase === 'starting'}
        data-testid="random-start"
      >
        {startLabel}
      </button>
    </div>
  );
}
