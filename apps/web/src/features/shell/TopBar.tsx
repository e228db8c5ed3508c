import { useNavigate } from 'react-router-dom';
import { greetingName } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { NotificationsBell } from '../notifications/NotificationsBell';
import { useSignedInUser } from '../session/session-context';
import { ThemeToggle } from '../theme/ThemeToggle';

interface TopBarProps {
  sidebarId: string;
  menuOpen: boolean;
  onToggleMenu(): void;
}

export function TopBar({ sidebarId, menuOpen, onToggleMenu }: TopBarProps) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar__menu"
        aria-label="Menu"
        aria-expanded={menuOpen}
        aria-controls={sidebarId}
        onClick={onToggleMenu}
      >
        <Icon name="menu" />
      </button>
      <h2 className="topbar__greeting">Hi {greetingName(user)}</h2>
      <div className="topbar__actions">
        {user.role === 'admin' ? (
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => navigate('/admin/documents')}
          >
            Admin Page
          </button>
        ) : null}
        <NotificationsBell />
        <ThemeToggle />
        <button
          type="button"
          className="avatar-button"
          aria-label="Open profile"
          onClick={() => navigate('/profile')}
        >
          <Avatar user={user} size="sm" />
        </button>
      </div>
    </header>
  );
}
