import { useParams } from 'react-router-dom';
import { CHAT_MSG } from '@campus/protocol';
import { Spinner } from '../../components/Spinner';
import { GroupChat } from './GroupChat';
import { useGroup } from './useGroup';
import '../chat/chat.css';

/** /group/:groupId: the group from the cache or the server, else the spec's 'Group information is missing.' */
export function GroupChatPage() {
  const { groupId = '' } = useParams();
  const group = useGroup(groupId);
  if (group === undefined) {
    return (
      <div className="chat chat--status">
        <Spinner /> Loading group…
      </div>
    );
  }
  if (group === null) {
    return (
      <div className="chat chat--status">
        <p className="chat__error" role="alert">
          {CHAT_MSG.groupInfoMissing}
        </p>
      </div>
    );
  }
  return <GroupChat key={group.id} group={group} />;
}
