import { dateSeparatorLabel, dayKey } from '@campus/protocol';

/** What ordering and grouping need of a direct or group message. */
export interface Ordered {
  id: string;
  timestamp: string;
  seq?: number;
}

/**
 * Server order (seq) for stored messages; messages only on this device (no seq yet) go after them, by time,
 * the way a chat shows what is still being sent at the bottom.
 */
export function compareMessages(a: Ordered, b: Ordered): number {
  if (a.seq !== undefined && b.seq !== undefined && a.seq !== b.seq) return a.seq - b.seq;
  if (a.seq !== undefined && b.seq === undefined) return -1;
  if (a.seq === undefined && b.seq !== undefined) return 1;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function sortMessages<M extends Ordered>(messages: readonly M[]): M[] {
  return [...messages].sort(compareMessages);
}

export type ListRow<M> =
  { kind: 'separator'; key: string; label: string } | { kind: 'message'; key: string; message: M };

/** Inserts a date separator (Today, Yesterday or the full date) before the first message of each day. */
export function withDateSeparators<M extends Ordered>(
  messages: readonly M[],
  now: Date = new Date(),
): ListRow<M>[] {
  const rows: ListRow<M>[] = [];
  let lastDay: string | null = null;
  for (const message of messages) {
    const day = dayKey(message.timestamp);
    if (day !== lastDay) {
      rows.push({
        kind: 'separator',
        key: `day-${day}-${message.id}`,
        label: dateSeparatorLabel(message.timestamp, now),
      });
      lastDay = day;
    }
    rows.push({ kind: 'message', key: message.id, message });
  }
  return rows;
}
