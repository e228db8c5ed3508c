import type { UserRef } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useCall } from './call-context';
import { personName } from './call-state';

/** Audio and video call buttons for one person (a friend row, a chat header). */
export function CallButtons({ user }: { user: UserRef }) {
  const { startCall, state } = useCall();
  const name = personName(user);
  const busy = state.phase === 'outgoing' || state.phase === 'incoming' || state.phase === 'active';
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={`Audio call ${name}`}
        disabled={busy}
        onClick={() => startCall(user, 'audio')}
      >
        <Icon name="phone" />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Video call ${name}`}
        disabled={busy}
        onClick={() => startCall(user, 'video')}
      >
        <Icon name="video" />
      </button>
    </>
  );
}
