import { lazy, Suspense, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CHAT } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import './composer.css';

const EmojiPickerPanel = lazy(() => import('./EmojiPickerPanel'));

interface Props {
  /** 88 px in direct chats, 112 px in groups. */
  maxHeight: number;
  placeholder: string;
  onSend: (text: string) => void;
  onKeystroke: () => void;
  onAttach: (file: File) => void;
}

/** Puts `text` where the caret was (or over the selection) and returns the new value and caret. */
export function insertAt(value: string, start: number, end: number, text: string) {
  return { value: value.slice(0, start) + text + value.slice(end), caret: start + text.length };
}

/**
 * The message box. It stays enabled while offline on purpose: messages queue in the outbox and show as
 * sending until the connection is back.
 */
export function Composer({ maxHeight, placeholder, onSend, onKeystroke, onAttach }: Props) {
  const [text, setText] = useState('');
  const [pickerOpen, setPickerOpen] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);

  // Grow with the text up to the limit, then scroll inside.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, maxHeight)}px`;
    el.style.overflowY = el.scrollHeight > maxHeight ? 'auto' : 'hidden';
    if (caret.current !== null) {
      el.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  }, [text, maxHeight]);

  const send = () => {
    const content = text.trim();
    if (!content) return;
    onSend(content);
    setText('');
    setPickerOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = textarea.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = insertAt(text, start, end, emoji);
    if (next.value.length > CHAT.maxMessageLength) return;
    caret.current = next.caret;
    setText(next.value);
    onKeystroke();
    el?.focus();
  };

  return (
    <div className="composer">
      {pickerOpen ? (
        <div className="composer__picker" role="dialog" aria-label="Emoji picker">
          <Suspense
            fallback={
              <div className="composer__picker-loading">
                <Spinner /> Loading emoji…
              </div>
            }
          >
            <EmojiPickerPanel onPick={insertEmoji} />
          </Suspense>
        </div>
      ) : null}
      <div className="composer__row">
        <button
          type="button"
          className="icon-button"
          aria-label="Attach a file"
          title={`Attach a file (max ${CHAT.maxAttachmentLabel})`}
          onClick={() => fileInput.current?.click()}
        >
          <Icon name="paperclip" />
        </button>
        <input
          ref={fileInput}
          type="file"
          hidden
          aria-label="Attachment file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) onAttach(file);
          }}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={pickerOpen ? 'Close emoji picker' : 'Emoji'}
          aria-expanded={pickerOpen}
          onClick={() => setPickerOpen((open) => !open)}
        >
          <Icon name={pickerOpen ? 'close' : 'smile'} />
        </button>
        <textarea
          ref={textarea}
          className="composer__input"
          rows={1}
          value={text}
          placeholder={placeholder}
          aria-label="Message"
          maxLength={CHAT.maxMessageLength}
          style={{ maxHeight }}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value) onKeystroke();
          }}
          onKeyDown={onKeyDown}
        />
        <button
          type="button"
          className="composer__send button button--primary"
          onClick={send}
          disabled={!text.trim()}
        >
          Send
        </button>
      </div>
      <p className="composer__hint">
        Max {CHAT.maxAttachmentLabel} per attachment · Shift+Enter for a new line
      </p>
    </div>
  );
}
