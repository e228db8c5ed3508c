import { useParams } from 'react-router-dom';
import { DirectChat } from './DirectChat';

/** /chat/:userId. Keyed by the partner so that switching chats starts each one fresh. */
export function ChatPage() {
  const { userId = '' } = useParams();
  return <DirectChat key={userId} partnerId={userId} />;
}
