import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { RANDOM_MSG, type RandomKind } from '@campus/protocol';
import { Icon, type IconName } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { TipsSection, type Tip } from '../../talk/TalkTips';
import { OptionCard } from '../OptionCard';
import { activeFilterValues, filtersSummary } from '../filters-summary';
import { RandomAccessGate } from '../RandomAccessGate';
import { RANDOM_PATHS, readRandomNav, type RandomNavState } from '../random-nav';
import { FindingOverlay } from '../RandomParts';
import { useRandomCounts } from './useRandomCounts';
import '../../talk/talk.css';
import '../random.css';

const CARDS: { kind: RandomKind; title: string; text: string; icon: IconName; popular?: boolean }[] = [
  {
    kind: 'audio',
    title: 'Focused Audio Call',
    text: 'Talk by voice with a student who matches.',
    icon: 'phone',
  },
  {
    kind: 'video',
    title: 'Focused Video Call',
    text: 'Face to face, blurred until you both reveal.',
    icon: 'video',
    popular: true,
  },
  { kind: 'chat', title: 'Focused Chat', text: 'A text chat with a student who matches.', icon: 'chat' },
];

const TIPS: readonly Tip[] = [
  { title: 'Be Specific', text: 'A few precise filters find better matches than many loose ones.' },
  { title: 'Build Networks', text: 'Met someone great? Add them as a friend before you go.' },
  { title: 'Take Your Time', text: 'Matching takes longer with more filters. It is worth the wait.' },
];

/** How often the counts are asked again while the screen is open. */
const REFRESH_MS = 15_000;

/**
 * Focused Talk Options: the summary of the chosen filters, Back to Filters, 'Your Active Filters', and the
 * three ways to talk, each with the real number of matching students waiting for that kind right now.
 */
export function FocusedTalkOptionsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [filters] = useState(() => readRandomNav(location.state).filters);
  const summary = filtersSummary(filters);
  useDocumentTitle(`Focused talk: ${summary}`);
  const { counts, loading, failed } = useRandomCounts(filters, { debounceMs: 0, refreshMs: REFRESH_MS });
  const [choosing, setChoosing] = useState(false);
  const chips = activeFilterValues(filters);

  const choose = (kind: RandomKind) => {
    setChoosing(true);
    const state: RandomNavState = { ...(filters ? { filters } : {}), start: true };
    void navigate(RANDOM_PATHS[kind], { state });
  };
  const backToFilters = () => {
    const state: RandomNavState = filters ? { filters } : {};
    void navigate('/focused-talk', { state });
  };

  return (
    <section className="page random focused" aria-labelledby="page-title">
      <header className="random__header">
        <button type="button" className="button button--ghost random-back" onClick={backToFilters}>
          <Icon name="arrowLeft" size={18} />
          <span>Back to Filters</span>
        </button>
        <h1 className="page__title" id="page-title">
          Focused Talk: <span data-testid="focused-summary">{summary}</span>
        </h1>
      </header>
      <RandomAccessGate>
        <section className="focused-active" aria-labelledby="focused-active-title">
          <h2 className="talk-section__title" id="focused-active-title">
            Your Active Filters
          </h2>
          {chips.length > 0 ? (
            <ul className="chips" aria-label="Active filters">
              {chips.map((chip) => (
                <li key={`${chip.group}:${chip.value}`} className="chip chip--static">
                  {chip.value}
                </li>
              ))}
            </ul>
          ) : (
            <p className="page__note">All students (no filters applied)</p>
          )}
          <p className="focused-online" role="status" data-testid="focused-online">
            {loading ? (
              <>
                <Spinner /> Counting students online…
              </>
            ) : failed || !counts ? (
              'Counts are not available right now.'
            ) : (
              `${counts.total} ${counts.total === 1 ? 'student' : 'students'} online match your filters.`
            )}
          </p>
        </section>

        <div className="talk-cards random-cards">
          {CARDS.map((card) => (
            <OptionCard
              key={card.kind}
              icon={card.icon}
              title={
                <>
                  {card.title}
                  {card.popular ? <span className="focused-popular">Popular</span> : null}
                </>
              }
              text={card.text}
              testId={`focused-option-${card.kind}`}
              onChoose={() => choose(card.kind)}
            >
              <span className="focused-count" data-testid={`focused-count-${card.kind}`}>
                <strong>{counts ? counts.waiting[card.kind] : '–'}</strong> match your filters
                <span className="focused-count__sub"> (waiting now)</span>
              </span>
            </OptionCard>
          ))}
        </div>

        <TipsSection
          idPrefix="focused"
          title="Tips"
          tips={TIPS}
          safetyText="Never share phone numbers, addresses or social media accounts. You can end the conversation at any time."
        />
      </RandomAccessGate>
      {choosing ? <FindingOverlay text={RANDOM_MSG.findingPerfect} /> : null}
    </section>
  );
}
