import { Icon, type IconName } from '../../components/Icon';
import { Logo } from '../../components/Logo';
import './brand.css';

const HIGHLIGHTS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'shield', title: 'Verified students only', text: 'Every account is checked against a student ID.' },
  {
    icon: 'chat',
    title: 'Chats, groups and random talk',
    text: 'Message friends or meet someone new on campus.',
  },
  { icon: 'sparkles', title: 'Anonymous confessions', text: 'Say what’s on your mind with a nickname.' },
];

export function BrandPanel() {
  return (
    <aside className="brand" aria-label="About Campus Talk">
      <div className="brand__inner">
        <div className="brand__name">
          <Logo size={40} />
          <span>Campus Talk</span>
        </div>
        <p className="brand__headline">Talk with verified students on your campus</p>
        <p className="brand__lead">
          Real conversations with people who share your lectures, your library and your late-night snack runs.
        </p>
        <ul className="brand__list">
          {HIGHLIGHTS.map((item) => (
            <li key={item.title} className="brand__item">
              <span className="brand__icon">
                <Icon name={item.icon} />
              </span>
              <span>
                <strong>{item.title}</strong>
                <span className="brand__item-text">{item.text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}
