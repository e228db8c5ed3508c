import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG } from '@campus/protocol';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { RandomChatRoom } from './RandomChatRoom';
import { IdlePanel, RandomScreen, RandomStage } from './RandomScreen';
import { PostRoomPanel } from './RoomActions';
import { useRandomScreen } from './useRandomScreen';
import './random.css';

/**
 * Random text chat: idle → finding → connected (messages relayed, never stored) → post ('Nice chat!',
 * Start New Chat, Report, Block, Back to Home).
 */
export function RandomChatPage() {
  useDocumentTitle('Random chat');
  const navigate = useNavigate();
  const { state, controller } = useRandomScreen('chat');
  const screen = { state, controller };

  return (
    <RandomScreen title="Random Chat" state={state} controller={controller}>
      <RandomStage
        {...screen}
        idle={
          <IdlePanel
            {...screen}
            icon="chat"
            title={RANDOM_MSG.chatIdle}
            text={RANDOM_MSG.chatIdleSub}
            startLabel={RANDOM_MSG.startChat}
          />
        }
        room={<RandomChatRoom {...screen} onHome={() => void navigate('/talk')} />}
        post={
          <PostRoomPanel {...screen} title={RANDOM_MSG.niceChat} startNewLabel={RANDOM_MSG.startNewChat} />
        }
      />
    </RandomScreen>
  );
}
