import { useEffect, useRef, useState } from 'react';
import { CHAT } from '@campus/protocol';
import { writeMarkRead, type LocalDirectMessage } from '@campus/sync';
import { useSync } from '../sync/sync-context';

/** Whether the page is visible (not a background tab or a minimised window). */
export function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}

/**
 * Marks the partner's messages read while this chat is open and the window is visible: everything unread in
 * one `mark_messages_as_read` per batch, each message asked for once.
 */
export function useMarkRead(partnerId: string, messages: readonly LocalDirectMessage[] | undefined) {
  const client = useSync();
  const visible = useDocumentVisible();
  const asked = useRef(new Set<string>());

  useEffect(() => {
    if (!visible || !messages) return;
    const ids = messages
      .filter((m) => m.from.id === partnerId && m.status !== 'read' && !asked.current.has(m.id))
      .map((m) => m.id);
    for (let i = 0; i < ids.length; i += CHAT.maxReadBatch) {
      const batch = ids.slice(i, i + CHAT.maxReadBatch);
      batch.forEach((id) => asked.current.add(id));
      void client
        .run(writeMarkRead, partnerId, batch)
        .catch(() => batch.forEach((id) => asked.current.delete(id)));
    }
  }, [client, messages, partnerId, visible]);
}
