import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FocusedFilters } from '@campus/protocol';
import { Icon, type IconName } from '../../../components/Icon';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { RandomAccessGate } from '../RandomAccessGate';
import { readRandomNav, type RandomNavState } from '../random-nav';
import { BackToTalk } from '../RandomParts';
import { FilterDialog } from './FilterDialog';
import '../../talk/talk.css';
import '../random.css';

const FEATURES: { title: string; text: string; icon: IconName }[] = [
  {
    title: 'Smart Filtering',
    text: 'Match by interests, college, skill level, country and branch.',
    icon: 'sparkles',
  },
  {
    title: 'Quality Matches',
    text: 'Meet verified students who share what you care about.',
    icon: 'shield',
  },
  { title: 'Multiple Options', text: 'Talk by voice, by video or in a text chat.', icon: 'chat' },
];

/** The spec's fixed marketing figures (not measured by this app). */
const STATS = [
  { value: '94%', label: 'Match Satisfaction' },
  { value: '2.3x', label: 'Longer Conversations' },
  { value: '78%', label: 'Friend Requests' },
  { value: '15min', label: 'Avg. Call Duration' },
] as const;

const STEPS = [
  { title: 'Set your filters', text: 'Choose interests, colleges, skill levels, countries or branches.' },
  { title: 'Choose connection type', text: 'An audio call, a video call or a text chat.' },
  { title: 'Start connecting', text: 'We find a student online now who matches.' },
] as const;

/**
 * Focused Talk landing: Back to Talk, the hero whose 'Start Focused Talk' opens the filter dialog, three
 * feature cards, the marketing figures and how it works. Back to Filters brings the chosen filters back.
 */
export function FocusedTalkPage() {
  useDocumentTitle('Focused talk');
  const navigate = useNavigate();
  const location = useLocation();
  const [returned] = useState(() => readRandomNav(location.state).filters);
  const [open, setOpen] = useState(returned !== null);

  const start = (filters: FocusedFilters) => {
    setOpen(false);
    const state: RandomNavState = { filters };
    void navigate('/focused-talk-options', { state });
  };

  return (
    <section className="page random focused" aria-labelledby="page-title">
      <header className="random__header">
        <BackToTalk />
      </header>
      <div className="focused-hero">
        <span className="focused-hero__icon" aria-hidden="true">
          <Icon name="sparkles" size={32} />
        </span>
        <h1 className="page__title" id="page-title">
          Focused Talk
        </h1>
        <p className="page__lead">Only who you choose. Meet students who share your interests.</p>
        <RandomAccessGate>
          <button
            type="button"
            className="button button--primary"
            onClick={() => setOpen(true)}
            data-testid="focused-start"
          >
            Start Focused Talk
          </button>
        </RandomAccessGate>
      </div>

      <ul className="talk-cards focused-features" aria-label="Features">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="talk-card">
            <span className="talk-card__icon">
              <Icon name={feature.icon} size={24} />
            </span>
            <span className="talk-card__title">{feature.title}</span>
            <span className="talk-card__text">{feature.text}</span>
          </li>
        ))}
      </ul>

      <dl className="focused-stats">
        {STATS.map((stat) => (
          <div key={stat.label} className="focused-stat">
            <dt>{stat.label}</dt>
            <dd>{stat.value}</dd>
          </div>
        ))}
      </dl>

      <section className="talk-section" aria-labelledby="focused-how">
        <h2 className="talk-section__title" id="focused-how">
          How Focused Talk Works
        </h2>
        <ol className="focused-steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="focused-step">
              <span className="focused-step__number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="talk-tip__title">{step.title}</span>
              <span className="talk-tip__text">{step.text}</span>
            </li>
          ))}
        </ol>
      </section>
      {open ? <FilterDialog initial={returned} onCancel={() => setOpen(false)} onStart={start} /> : null}
    </section>
  );
}
