import { useCallback, useEffect, useRef, useState } from 'react';
import { CONFESSIONS, type ModerationResult } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { moderate } from './confessions-api';

/**
 * The moderation preview: asked once typing pauses for 400 ms. `resolve` gives the verdict for the text
 * about to be sent, reusing the preview when it is for exactly that text.
 */
export function useModeration(text: string) {
  const api = useApi();
  const [preview, setPreview] = useState<ModerationResult | null>(null);
  const latest = useRef<ModerationResult | null>(null);

  useEffect(() => {
    if (!text.trim()) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      moderate(api, text, controller.signal).then(
        (result) => {
          latest.current = result;
          setPreview(result);
        },
        () => undefined,
      );
    }, CONFESSIONS.moderationDelayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, text]);

  const resolve = useCallback(
    async (value: string): Promise<ModerationResult> => {
      const known = latest.current;
      if (known && known.original_text === value) return known;
      return moderate(api, value);
    },
    [api],
  );

  const current = preview && preview.original_text === text ? preview : null;
  return { preview: current, resolve };
}
