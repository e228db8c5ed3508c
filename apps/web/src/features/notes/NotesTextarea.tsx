import { useEffect, useRef, type ChangeEvent } from 'react';
import type * as Y from 'yjs';
import { NOTES } from '@campus/protocol';
import { diffText, mapPosition, type TextDelta } from './text-diff';

interface Props {
  text: Y.Text;
  labelledBy: string;
  describedBy: string;
  /**
   * Shown, never edited: the server refuses edits from a limited account (and closes the socket, so a local
   * edit kept on this device would lock its notes away for good).
   */
  readOnly: boolean;
  /** Told when a single edit was too large to send, and undone. */
  onEditRefused(): void;
  onEditAccepted(): void;
}

/** Marks our own transactions, so the observer does not re-render what the textarea already shows. */
const LOCAL = Symbol('local notes edit');

/**
 * A plain textarea bound to a Y.Text. It is uncontrolled on purpose: React re-setting the value on every
 * keystroke would move the caret, and remote edits need the caret mapped through them, not reset.
 */
export function NotesTextarea({
  text,
  labelledBy,
  describedBy,
  readOnly,
  onEditRefused,
  onEditAccepted,
}: Props) {
  const ref = useRef<HTMLTextAreaElement>(null);
  /** What the textarea showed after the last sync with the Y.Text. */
  const shown = useRef('');

  useEffect(() => {
    const area = ref.current;
    if (!area) return;
    area.value = shown.current = text.toString();
    const observer = (event: Y.YTextEvent, transaction: Y.Transaction) => {
      if (transaction.origin === LOCAL) return;
      const focused = document.activeElement === area;
      const { selectionStart, selectionEnd } = area;
      const delta = event.delta as TextDelta;
      area.value = shown.current = text.toString();
      if (focused)
        area.setSelectionRange(mapPosition(selectionStart, delta), mapPosition(selectionEnd, delta));
    };
    text.observe(observer);
    return () => text.unobserve(observer);
  }, [text]);

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    const area = event.currentTarget;
    if (readOnly) {
      area.value = shown.current;
      return;
    }
    const change = diffText(shown.current, area.value);
    if (!change) return;
    if (change.insert.length > NOTES.maxEditChars) {
      const caret = change.index;
      area.value = shown.current;
      area.setSelectionRange(caret, caret);
      onEditRefused();
      return;
    }
    text.doc?.transact(() => {
      if (change.remove) text.delete(change.index, change.remove);
      if (change.insert) text.insert(change.index, change.insert);
    }, LOCAL);
    shown.current = area.value;
    onEditAccepted();
  };

  return (
    <textarea
      ref={ref}
      className="notes-textarea"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      maxLength={NOTES.maxChars}
      readOnly={readOnly}
      spellCheck
      onChange={onChange}
    />
  );
}
