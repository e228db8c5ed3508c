import { useId, useState, type FormEvent } from 'react';
import { CONFESSIONS, DEFAULT_MOOD, MOODS, moodLabel } from '@campus/protocol';
import { writeConfessionPost } from '@campus/sync';
import { useSync } from '../sync/sync-context';
import { POST_FAILED, errorLine, requireAuthToken, type ErrorLine } from './confessions-api';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from './ErrorText';
import { useCensorGate } from './useCensorGate';
import { cardFontPx } from './card-font';

interface ComposerProps {
  college: string | null;
  nickname: string;
  onClose(): void;
  /** The post is queued and on top of the feed (pending until the server has it). */
  onPosted(id: string): void;
}

/** The post composer: mood, text (1000 characters), live preview, moderation and the censor confirmation. */
export function ComposerDialog({ college, nickname, onClose, onPosted }: ComposerProps) {
  const client = useSync();
  const textId = useId();
  const counterId = useId();
  const [mood, setMood] = useState<string>(DEFAULT_MOOD);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorLine | null>(null);

  async function send(content: string) {
    setBusy(true);
    setError(null);
    try {
      requireAuthToken();
      // Through the outbox, online or not: the card shows at once (pending) and is delivered exactly once;
      // the server moderates it again. A refusal comes back to the feed as a message_error.
      const id = await client.run(writeConfessionPost, content.trim(), mood, { nickname, college });
      onPosted(id);
    } catch (failure) {
      setError(errorLine(failure, POST_FAILED, true));
      setBusy(false);
    }
  }

  const gate = useCensorGate(text, send);
  const { preview } = gate;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy) void gate.submit();
  }

  const shown = preview?.has_blocked_words ? preview.censored_text : text;
  return (
    <Dialog title="Post a confession" onClose={onClose}>
      <form className="cf-form" onSubmit={submit}>
        <fieldset className="cf-moods">
          <legend className="field__label">Mood</legend>
          {MOODS.map((option) => (
            <label key={option.id} className="cf-mood">
              <input
                type="radio"
                name="mood"
                value={option.tag}
                checked={mood === option.tag}
                onChange={() => setMood(option.tag)}
              />
              <span aria-hidden="true">{option.tag}</span> {option.label}
            </label>
          ))}
        </fieldset>
        <label className="field__label" htmlFor={textId}>
          Your confession
        </label>
        <textarea
          id={textId}
          className="field__input cf-textarea"
          rows={5}
          value={text}
          maxLength={CONFESSIONS.maxConfessionLength}
          aria-describedby={counterId}
          onChange={(event) => setText(event.target.value)}
          data-autofocus
        />
        <p className="cf-counter" id={counterId}>
          {text.length}/{CONFESSIONS.maxConfessionLength}
        </p>
        <section className="cf-preview" aria-label="Preview">
          <p className="cf-card__meta">
            <span className="cf-mood-badge">
              {mood} {moodLabel(mood)}
            </span>
            <span>{nickname}</span>
          </p>
          <p
            className="cf-card__text"
            style={{
              fontSize: cardFontPx(shown.length, CONFESSIONS.cardFontMinPx, CONFESSIONS.cardFontMaxPx),
            }}
          >
            {shown || 'Your words will appear here.'}
          </p>
          {preview?.has_blocked_words ? <p className="cf-note">Some words will be censored.</p> : null}
        </section>
        <ErrorText error={error} />
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={!text.trim() || busy || gate.checking}
          >
            Post
          </button>
        </div>
      </form>
      {gate.prompt}
    </Dialog>
  );
}
