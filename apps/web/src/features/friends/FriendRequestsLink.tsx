import { useSearchParams } from 'react-router-dom';
import { FriendRequestsModal } from './FriendRequestsModal';

/** `?friendRequests=1` (the push notification's link) opens the modal; closing it drops the parameter. */
export function FriendRequestsLink() {
  const [params, setParams] = useSearchParams();
  if (params.get('friendRequests') !== '1') return null;
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('friendRequests');
        return next;
      },
      { replace: true },
    );
  return <FriendRequestsModal onClose={close} />;
}
