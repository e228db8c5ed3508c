import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { CHAT } from '@campus/protocol';
import { withDateSeparators, type Ordered } from './message-order';

interface Props<M extends Ordered> {
  label: string;
  /** In display order, oldest first. */
  messages: readonly M[];
  renderMessage: (message: M) => ReactNode;
  isOwn: (message: M) => boolean;
  canLoadOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Rows after the messages (uploads in progress). */
  footer?: ReactNode;
  empty?: ReactNode;
}

/** How close to the top a scroll asks for older messages. */
const TOP_THRESHOLD_PX = 24;

function distanceFromBottom(el: HTMLElement): number {
  return el.scrollHeight - el.scrollTop - el.clientHeight;
}

/**
 * The scrolling message log. Keeps the reader's place when older messages are put above, follows new ones
 * when the reader is within 100 px of the bottom (or wrote them), and otherwise offers 'New messages'.
 */
export function MessageList<M extends Ordered>(props: Props<M>) {
  const { label, messages, renderMessage, isOwn, canLoadOlder, loadingOlder, onLoadOlder, footer, empty } =
    props;
  const listRef = useRef<HTMLDivElement>(null);
  const snapshot = useRef<{
    firstId?: string;
    lastId?: string;
    height: number;
    top: number;
    nearBottom: boolean;
  }>({
    height: 0,
    top: 0,
    nearBottom: true,
  });
  const [hasUnseen, setHasUnseen] = useState(false);

  const remember = useCallback(() => {
    const el = listRef.current;
    if (!el) return;
    const near = distanceFromBottom(el) <= CHAT.nearBottomPx;
    Object.assign(snapshot.current, { height: el.scrollHeight, top: el.scrollTop, nearBottom: near });
    return near;
  }, []);

  const scrollToBottom = useCallback(() => {
    const el = listRef.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    setHasUnseen(false);
    remember();
  }, [remember]);

  const first = messages[0];
  const last = messages.at(-1);
  const lastIsOwn = last ? isOwn(last) : false;

  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const before = snapshot.current;
    if (!before.lastId && last) {
      el.scrollTop = el.scrollHeight;
    } else if (first?.id !== before.firstId && last?.id === before.lastId) {
      // Older messages went in above: keep what the reader was looking at in place.
      el.scrollTop = el.scrollHeight - before.height + before.top;
    } else if (last && last.id !== before.lastId) {
      if (before.nearBottom || lastIsOwn) el.scrollTop = el.scrollHeight;
      else queueMicrotask(() => setHasUnseen(true));
    } else if (before.nearBottom) {
      el.scrollTop = el.scrollHeight;
    }
    snapshot.current.firstId = first?.id;
    snapshot.current.lastId = last?.id;
    remember();
  }, [first?.id, last, lastIsOwn, footer, remember]);

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    if (remember()) setHasUnseen(false);
    if (el.scrollTop <= TOP_THRESHOLD_PX && canLoadOlder && !loadingOlder) onLoadOlder();
  };

  const rows = withDateSeparators(messages);
  return (
    <div className="message-list-wrap">
      <div
        className="message-list"
        ref={listRef}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-label={label}
      >
        {canLoadOlder ? (
          <div className="message-list__older">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={onLoadOlder}
              disabled={loadingOlder}
            >
              {loadingOlder ? 'Loading…' : 'Load older messages'}
            </button>
          </div>
        ) : null}
        {rows.length === 0 ? empty : null}
        {rows.map((row) =>
          row.kind === 'separator' ? (
            <div key={row.key} className="date-separator" role="separator">
              <span>{row.label}</span>
            </div>
          ) : (
            <div key={row.key} className="message-row">
              {renderMessage(row.message)}
            </div>
          ),
        )}
        {footer}
      </div>
      {hasUnseen ? (
        <button type="button" className="new-messages-button" onClick={scrollToBottom}>
          New messages ↓
        </button>
      ) : null}
    </div>
  );
}
