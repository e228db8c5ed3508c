import { useState, type ReactNode } from 'react';
import { censorConfirm } from '@campus/protocol';
import { ConfirmDialog } from '../../components/Dialog';
import { useModeration } from './useModeration';

/**
 * What posting and commenting share: the moderation preview, and a submit that sends clean text at once
 * but asks first ('Your confession contains words that will be censored…') before sending the censored
 * version. `prompt` is that question, to render while it is open.
 */
export function useCensorGate(text: string, send: (content: string) => Promise<void>) {
  const { preview, resolve } = useModeration(text);
  const [checking, setChecking] = useState(false);
  const [censored, setCensored] = useState<string | null>(null);

  async function submit() {
    if (!text.trim() || checking) return;
    setChecking(true);
    const verdict = await resolve(text);
    setChecking(false);
    if (verdict.has_blocked_words) setCensored(verdict.censored_text);
    else await send(text);
  }

  const prompt: ReactNode =
    censored === null ? null : (
      <ConfirmDialog
        title="Censored words"
        message={censorConfirm(censored)}
        confirmLabel="Continue"
        onCancel={() => setCensored(null)}
        onConfirm={() => {
          setCensored(null);
          void send(censored);
        }}
      />
    );

  return { preview, submit, checking, prompt };
}
