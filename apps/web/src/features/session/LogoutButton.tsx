import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { useSession } from './session-context';

export function LogoutButton({ className = 'button button--ghost' }: { className?: string }) {
  const { logout } = useSession();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void logout();
      }}
    >
      <Icon name="logout" size={18} />
      <span>{busy ? 'Logging out…' : 'Logout'}</span>
    </button>
  );
}
