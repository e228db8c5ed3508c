import type { CampusDatabase, LocalDirectMessage, LocalGroupMessage } from '@campus/sync';
import { sortMessages, type Ordered } from './message-order';

/** Messages only on this device: they have no seq yet and show at the bottom whatever their device time. */
const UNSTORED = ['sending', 'failed'];

function merge<M extends Ordered>(stored: M[], pending: M[]): M[] {
  const byId = new Map(stored.map((m) => [m.id, m]));
  for (const m of pending) if (!byId.has(m.id)) byId.set(m.id, m);
  return sortMessages([...byId.values()]);
}

/**
 * The newest `limit` stored messages of a chat in server order (seq, not the device's clock, which may be
 * off), plus every pending or failed message of it, which would otherwise fall outside a newest-N window.
 */
export async function directWindow(
  db: CampusDatabase,
  partnerId: string,
  limit: number,
): Promise<LocalDirectMessage[]> {
  const [stored, pending] = await Promise.all([
    db.messages
      .where('[peerId+seq]')
      .between([partnerId, -Infinity], [partnerId, Infinity], true, true)
      .reverse()
      .limit(limit)
      .toArray(),
    db.messages
      .where('status')
      .anyOf(UNSTORED)
      .filter((m) => m.peerId === partnerId && m.seq === undefined)
      .toArray(),
  ]);
  return merge(stored, pending);
}

export async function groupWindow(
  db: CampusDatabase,
  groupId: string,
  limit: number,
): Promise<LocalGroupMessage[]> {
  const [stored, pending] = await Promise.all([
    db.groupMessages
      .where('[group+seq]')
      .between([groupId, -Infinity], [groupId, Infinity], true, true)
      .reverse()
      .limit(limit)
      .toArray(),
    db.groupMessages
      .where('status')
      .anyOf(UNSTORED)
      .filter((m) => m.group === groupId && m.seq === undefined)
      .toArray(),
  ]);
  return merge(stored, pending);
}
