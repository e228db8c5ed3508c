import { useCallback, useEffect, useRef } from 'react';
import { CHAT } from '@campus/protocol';
import type { TypingTarget } from '@campus/sync';
import { useSync } from '../sync/sync-context';

/**
 * The spec's typing rule: the first keystroke emits typing, 2 s without input emits stop_typing, and sending
 * (or leaving the chat) stops it too.
 */
export function useTypingSignal(target: TypingTarget) {
  const client = useSync();
  const typing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const targetKey = 'roomId' in target ? `u:${target.roomId}` : `g:${target.groupId}`;
  const targetRef = useRef(target);

  useEffect(() => {
    targetRef.current = target;
  });

  const stop = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (typing.current) {
      typing.current = false;
      client.stopTyping(targetRef.current);
    }
  }, [client]);

  const keystroke = useCallback(() => {
    if (!typing.current) {
      typing.current = true;
      client.typing(targetRef.current);
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(stop, CHAT.typingStopMs);
  }, [client, stop]);

  useEffect(() => stop, [stop, targetKey]);

  return { keystroke, stop };
}
