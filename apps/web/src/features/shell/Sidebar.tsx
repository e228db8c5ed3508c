import { NavLink } from 'react-router-dom';
import { Icon, type IconName } from '../../components/Icon';
import { Logo } from '../../components/Logo';
import { LogoutButton } from '../session/LogoutButton';

const ENTRIES: { to: string; label: string; icon: IconName }[] = [
  { to: '/talk', label: 'Talk', icon: 'chat' },
  { to: '/confessions', label: 'Confession', icon: 'heart' },
];

interface SidebarProps {
  id: string;
  /** Only matters on small screens, where the sidebar slides in over the page. */
  open: boolean;
  onClose(): void;
}

export function Sidebar({ id, open, onClose }: SidebarProps) {
  return (
    <aside id={id} className="sidebar" data-open={open} aria-label="Sidebar">
      <div className="sidebar__brand">
        <Logo size={32} />
        <span className="sidebar__title">Campus Talk</span>
        <button
          type="button"
          className="icon-button sidebar__close"
          aria-label="Close menu"
          onClick={onClose}
        >
          <Icon name="close" />
        </button>
      </div>
      <nav className="sidebar__nav" aria-label="Main">
        <ul className="sidebar__list">
          {ENTRIES.map((entry) => (
            <li key={entry.to}>
              <NavLink to={entry.to} className="sidebar__link" onClick={onClose}>
                <Icon name={entry.icon} />
                <span>{entry.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar__footer">
        <LogoutButton className="sidebar__link sidebar__logout" />
      </div>
    </aside>
  );
}
