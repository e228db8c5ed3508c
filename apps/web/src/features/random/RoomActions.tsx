import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { ReportDialog, type ReportInput } from '../safety/ReportDialog';
import type { ActionInput } from './random-actions';
import type { RandomController } from './random-controller';
import type { RandomState } from './random-state';
import { RoomEndedNote } from './RandomParts';

type Pending = 'add-friend' | 'block' | null;

/** Sends an action, keeps its button busy until the server answers (the answer shows in ActionResult). */
function useAction(controller: RandomController) {
  const [pending, setPending] = useState<Pending>(null);
  const run = (input: ActionInput & { action: 'add-friend' | 'block' }) => {
    setPending(input.action);
    controller
      .act(input)
      .catch(() => undefined)
      .finally(() => setPending(null));
  };
  return { pending, run };
}

/** Add Friend (during the room, and after it). */
export function AddFriendButton({ controller, className = 'button button--secondary' }: ButtonProps) {
  const { pending, run } = useAction(controller);
  return (
    <button
      type="button"
      className={className}
      onClick={() => run({ action: 'add-friend' })}
      disabled={pending !== null}
      data-testid="random-add-friend"
    >
      <Icon name="users" size={18} />
      <span>Add Friend</span>
    </button>
  );
}

interface ButtonProps {
  controller: RandomController;
  className?: string;
}

/**
 * After the room: Add Friend, Report and Block for real (DESIGN, Safety), through random-action on /ws:
 * the server resolves the partner from the room. Report opens the safety feature's dialog.
 */
export function PostRoomActions({
  controller,
  state,
  restart,
  children,
}: {
  controller: RandomController;
  state: RandomState;
  /** The screen's primary way back to idle (Start New Call, Start New Chat, Done), after these. */
  restart: { label: string; testId: string };
  /** The screen's own further buttons (Back to Home), last. */
  children?: ReactNode;
}) {
  const { pending, run } = useAction(controller);
  const [reporting, setReporting] = useState(false);
  const name = state.partner?.firstName || 'this student';

  // The dialog says thanks once this resolves, and shows the server's refusal when it rejects.
  const submitReport = async (input: ReportInput) => {
    await controller.act({ action: 'report', reason: input.reason, note: input.note, block: input.block });
  };

  return (
    <div className="random-actions" role="group" aria-label="After the chat">
      <AddFriendButton controller={controller} />
      <button
        type="button"
        className="button button--secondary"
        onClick={() => setReporting(true)}
        data-testid="random-report"
      >
        <Icon name="shield" size={18} />
        <span>Report</span>
      </button>
      <button
        type="button"
        className="button button--secondary random-block"
        onClick={() => run({ action: 'block' })}
        disabled={pending !== null}
        data-testid="random-block"
      >
        <Icon name="close" size={18} />
        <span>Block</span>
      </button>
      <button
        type="button"
        className="button button--primary"
        onClick={() => controller.reset()}
        data-testid={restart.testId}
      >
        {restart.label}
      </button>
      {children}
      {reporting ? (
        <ReportDialog name={name} onSubmit={submitReport} onClose={() => setReporting(false)} />
      ) : null}
    </div>
  );
}

/**
 * The audio and chat screens' post phase: the screen's closing line, how the room ended, the actions above,
 * Start New (back to idle, on this screen) and Back to Home.
 */
export function PostRoomPanel({
  state,
  controller,
  title,
  startNewLabel,
}: {
  state: RandomState;
  controller: RandomController;
  title: string;
  startNewLabel: string;
}) {
  const navigate = useNavigate();
  return (
    <div className="random-post" data-testid="random-post">
      <h2 className="random-post__title">{title}</h2>
      <RoomEndedNote state={state} />
      <PostRoomActions
        controller={controller}
        state={state}
        restart={{ label: startNewLabel, testId: 'random-start-new' }}
      >
        <button type="button" className="button button--ghost" onClick={() => void navigate('/talk')}>
          {RANDOM_MSG.backToHome}
        </button>
      </PostRoomActions>
    </div>
  );
}
