import { useRef, useState } from 'react';
import {
  CONFESSIONS,
  REACTION_LABELS,
  REACTION_TYPES,
  moodLabel,
  relativeTime,
  type ReactionType,
} from '@campus/protocol';
import type { LocalConfession } from '@campus/sync';
import { Icon } from '../../components/Icon';
import { PendingClock } from '../chat/PendingClock';
import { CardMenu } from './CardMenu';
import { cardFontPx } from './card-font';

interface CardProps {
  /** `pending`: this device's post of it has not reached the server yet. */
  confession: LocalConfession;
  /** aria-posinset / aria-setsize in the feed (-1 while more may load). */
  position: number;
  setSize: number;
  /** The clock for the relative time, ticking in the parent. */
  now: number;
  showCollege: boolean;
  highlighted: boolean;
  onReact(type: ReactionType): void;
  /** Double tap: turns Like on (never off). */
  onLike(): void;
  onComments(): void;
  onShare(card: HTMLElement): Promise<void>;
  onDelete(): void;
}

/** The other three reactions, shown as small toggles next to Like (= relatable). */
const EXTRA_REACTIONS = REACTION_TYPES.filter((type) => type !== 'relatable');

export function ConfessionCard(props: CardProps) {
  const { confession, showCollege, highlighted } = props;
  const card = useRef<HTMLElement>(null);
  const lastTap = useRef(0);
  const [sharing, setSharing] = useState(false);
  const liked = confession.myReactions.includes('relatable');
  const fontSize = cardFontPx(
    confession.content.length,
    CONFESSIONS.cardFontMinPx,
    CONFESSIONS.cardFontMaxPx,
  );
  const labelId = `confession-${confession.id}-by`;

  function onTap() {
    const now = Date.now();
    if (now - lastTap.current <= CONFESSIONS.doubleTapMs) {
      lastTap.current = 0;
      props.onLike();
    } else {
      lastTap.current = now;
    }
  }

  async function share() {
    if (!card.current || sharing) return;
    setSharing(true);
    try {
      await props.onShare(card.current);
    } finally {
      setSharing(false);
    }
  }

  return (
    <article
      ref={card}
      id={`confession-${confession.id}`}
      className={`cf-card${highlighted ? ' cf-card--highlight' : ''}`}
      aria-labelledby={labelId}
      tabIndex={-1}
      aria-posinset={props.position}
      aria-setsize={props.setSize}
      data-highlighted={highlighted || undefined}
    >
      <header className="cf-card__meta">
        <span className="cf-mood-badge">
          <span aria-hidden="true">{confession.emotionTag}</span> {moodLabel(confession.emotionTag)}
        </span>
        <span className="cf-card__author" id={labelId}>
          {confession.nickname || 'Anon'}
        </span>
        <time className="cf-card__time" dateTime={confession.createdAt}>
          {relativeTime(confession.createdAt, props.now)}
        </time>
        {confession.pending ? <PendingClock label="Posting…" className="cf-pending" /> : null}
        {showCollege && confession.college ? <span className="cf-college">{confession.college}</span> : null}
        {confession.isMine ? <CardMenu onDelete={props.onDelete} /> : null}
      </header>
      {/* Double tap (or double click) on the text likes; the Like button is the keyboard path. */}
      <p
        className="cf-card__text"
        style={{ fontSize }}
        onClick={onTap}
        // A double tap likes; without this the browser would also select the word tapped.
        onMouseDown={(event) => {
          if (event.detail > 1) event.preventDefault();
        }}
      >
        {confession.content}
      </p>
      <p className="cf-watermark" aria-hidden="true">
        {CONFESSIONS.shareWatermark}
      </p>
      <div className="cf-card__reactions" data-share-hidden="true">
        {EXTRA_REACTIONS.map((type) => (
          <button
            key={type}
            type="button"
            className="cf-chip"
            aria-pressed={confession.myReactions.includes(type)}
            onClick={() => props.onReact(type)}
          >
            {REACTION_LABELS[type]} <span className="cf-count">{confession.reactions[type]}</span>
          </button>
        ))}
      </div>
      <div className="cf-card__actions" data-share-hidden="true" role="group" aria-label="Actions">
        <button
          type="button"
          className="cf-action"
          aria-pressed={liked}
          onClick={() => props.onReact('relatable')}
        >
          <Icon name="heart" size={18} /> Like{' '}
          <span className="cf-count">{confession.reactions.relatable}</span>
        </button>
        <button type="button" className="cf-action" onClick={props.onComments}>
          <Icon name="chat" size={18} /> Comment <span className="cf-count">{confession.commentCount}</span>
        </button>
        <button type="button" className="cf-action" onClick={() => void share()} disabled={sharing}>
          <Icon name="paperclip" size={18} /> Share
        </button>
      </div>
    </article>
  );
}
