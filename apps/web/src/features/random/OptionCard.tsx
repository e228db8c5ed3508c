import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../components/Icon';

/**
 * One way to talk on the Random and Focused Talk options screens: a card-shaped button with its icon,
 * title and text, and whatever the screen adds below (focused talk's count of matching students).
 */
export function OptionCard({
  icon,
  title,
  text,
  testId,
  onChoose,
  className = 'talk-card',
  children,
}: {
  icon: IconName;
  title: ReactNode;
  text: ReactNode;
  testId: string;
  onChoose(): void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <button type="button" className={className} onClick={onChoose} data-testid={testId}>
      <span className="talk-card__icon">
        <Icon name={icon} size={24} />
      </span>
      <span className="talk-card__title">{title}</span>
      <span className="talk-card__text">{text}</span>
      {children}
    </button>
  );
}
