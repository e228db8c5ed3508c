import { QUICK_REACTIONS } from '@campus/protocol';

interface Props {
  current: string | null;
  onReply: () => void;
  onReact: (emoji: string) => void;
}

/** Reply and the quick reactions; shown on hover and on keyboard focus, always reachable with Tab. */
export function MessageActions({ current, onReply, onReact }: Props) {
  return (
    <div className="message__actions" role="group" aria-label="Message actions">
      <button type="button" className="message__action" onClick={onReply} aria-label="Reply">
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M9 14L4 9l5-5M4 9h10a6 6 0 0 1 6 6v5" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      {QUICK_REACTIONS.map((emoji) => (
        <button
          key={emoji}
          type="button"
          className={`message__action${current === emoji ? ' message__action--chosen' : ''}`}
          aria-label={`React ${emoji}`}
          aria-pressed={current === emoji}
          onClick={() => onReact(emoji)}
        >
          {emoji}
        </button>
      ))}
    </div>
  );
}
