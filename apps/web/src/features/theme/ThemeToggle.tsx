import { Icon } from '../../components/Icon';
import { useTheme } from './ThemeProvider';

export function ThemeToggle({ className = 'icon-button' }: { className?: string }) {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button type="button" className={className} aria-label={`Switch to ${next} theme`} onClick={toggleTheme}>
      <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
    </button>
  );
}
