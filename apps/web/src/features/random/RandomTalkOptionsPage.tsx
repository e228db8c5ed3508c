import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { RANDOM_MSG, type RandomKind } from '@campus/protocol';
import type { IconName } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { OptionCard } from './OptionCard';
import { RandomAccessGate } from './RandomAccessGate';
import { RANDOM_PATHS, type RandomNavState } from './random-nav';
import { BackToTalk, FindingOverlay } from './RandomParts';
import '../talk/talk.css';
import './random.css';

const CARDS: { kind: RandomKind; title: string; text: string; icon: IconName }[] = [
  {
    kind: 'audio',
    title: 'Random Audio Call',
    text: 'Talk by voice with a random verified student for up to 10 minutes.',
    icon: 'phone',
  },
  {
    kind: 'video',
    title: 'Random Video Call',
    text: 'Face to face, blurred until you both press Reveal.',
    icon: 'video',
  },
  {
    kind: 'chat',
    title: 'Random Chat',
    text: 'Instant, anonymous text chat. Nothing is stored.',
    icon: 'chat',
  },
];

/** Random Talk options: Back to Talk, the three kinds of room, and the way to Focused Talk. */
export function RandomTalkOptionsPage() {
  useDocumentTitle('Random talk');
  const navigate = useNavigate();
  const [choosing, setChoosing] = useState(false);

  const choose = (kind: RandomKind) => {
    setChoosing(true);
    const state: RandomNavState = { start: true };
    void navigate(RANDOM_PATHS[kind], { state });
  };

  return (
    <section className="page random" aria-labelledby="page-title">
      <header className="random__header">
        <BackToTalk />
        <h1 className="page__title" id="page-title">
          Random Talk
        </h1>
        <p className="page__lead">Meet a random verified student by voice, video or text.</p>
      </header>
      <RandomAccessGate>
        <div className="talk-cards random-cards">
          {CARDS.map((card) => (
            <OptionCard
              key={card.kind}
              icon={card.icon}
              title={card.title}
              text={card.text}
              testId={`random-option-${card.kind}`}
              onChoose={() => choose(card.kind)}
            />
          ))}
          <OptionCard
            className="talk-card talk-card--random"
            icon="sparkles"
            title="Focused Talk"
            text="Only who you choose: match by interests, college and more."
            testId="random-option-focused"
            onChoose={() => void navigate('/focused-talk')}
          />
        </div>
      </RandomAccessGate>
      {choosing ? <FindingOverlay text={RANDOM_MSG.findingSomeone} /> : null}
    </section>
  );
}
