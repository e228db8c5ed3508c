import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { RANDOM_MSG, shortTime } from '@campus/protocol';
import { RANDOM_TEXT, type RandomState } from './random-state';
import type { RandomController } from './random-controller';
import { Elapsed, MatchedNote } from './RandomParts';
import { AddFriendButton } from './RoomActions';
import { PartnerMeta } from './RoomParts';
import { useRandomTyping } from './useRandomTyping';

/** Most characters one relayed message may have (the wire's limit). */
const MAX_LENGTH = 1000;

/**
 * The connected random chat: elapsed time, the partner's college and course, the messages with their
 * times, 'typing…', and the composer (Enter sends, Shift+Enter a new line), Add Friend and End Chat.
 */
export function RandomChatRoom({
  state,
  controller,
  onHome,
}: {
  state: RandomState;
  controller: RandomController;
  onHome(): void;
}) {
  const [text, setText] = useState('');
  const typing = useRandomTyping(controller);
  const list = useRef<HTMLOListElement>(null);

  // The newest line (or 'typing…') stays in view; only the list scrolls, not the page.
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [state.messages.length, state.partnerTyping]);

  const send = () => {
    if (!controller.sendMessage(text)) return;
    setText('');
    typing.stop();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <div className="random-chat" data-testid="random-room">
      <div className="random-chat__head">
        <Elapsed since={state.startedAt} />
        <PartnerMeta state={state} />
      </div>
      <MatchedNote state={state} />
      <ol ref={list} className="random-chat__list" aria-label="Messages" role="log">
        {state.messages.map((line) => (
          <li key={line.id} className={`random-line${line.mine ? ' random-line--mine' : ''}`}>
            <span className="visually-hidden">{line.mine ? 'You' : 'Them'}: </span>
            <span className="random-line__text">{line.text}</span>
            <time className="random-line__time" dateTime={line.timestamp}>
              {shortTime(line.timestamp)}
            </time>
          </li>
        ))}
        <li className="random-chat__typing" aria-live="polite">
          {state.reconnecting ? RANDOM_TEXT.reconnecting : state.partnerTyping ? 'typing…' : ''}
        </li>
      </ol>
      <div className="random-chat__composer">
        <textarea
          className="random-chat__input"
          value={text}
          placeholder={RANDOM_MSG.typeMessage}
          aria-label="Message"
          rows={1}
          maxLength={MAX_LENGTH}
          onChange={(event) => {
            setText(event.target.value);
            typing.changed(event.target.value);
          }}
          onKeyDown={onKeyDown}
          data-testid="random-message-input"
        />
        <button
          type="button"
          className="button button--primary random-chat__send"
          onClick={send}
          disabled={!text.trim() || state.reconnecting}
          data-testid="random-send"
        >
          Send
        </button>
      </div>
      <div className="random-actions">
        <AddFriendButton controller={controller} />
        <button
          type="button"
          className="button button--danger button--primary"
          onClick={() => controller.end()}
          data-testid="random-end"
        >
          {RANDOM_MSG.endChat}
        </button>
        <button type="button" className="button button--ghost" onClick={onHome}>
          {RANDOM_MSG.backToHome}
        </button>
      </div>
    </div>
  );
}
