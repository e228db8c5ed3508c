import { useCallback, useEffect, useRef } from 'react';
import { RANDOM } from '@campus/protocol';
import type { RandomController } from './random-controller';

/**
 * Random chat's typing rule (spec section 5): typing is sent once when text appears; stop-typing 1.2 s
 * after the last keystroke, when the input is emptied, or after send.
 */
export function useRandomTyping(controller: RandomController) {
  const typing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stop = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (typing.current) {
      typing.current = false;
      controller.setTyping(false);
    }
  }, [controller]);

  const changed = useCallback(
    (text: string) => {
      if (text === '') return stop();
      if (!typing.current) {
        typing.current = true;
        controller.setTyping(true);
      }
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(stop, RANDOM.typingStopMs);
    },
    [controller, stop],
  );

  // Leaving the screen: no timer left behind (the room's end tells the partner the rest).
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return { changed, stop };
}
