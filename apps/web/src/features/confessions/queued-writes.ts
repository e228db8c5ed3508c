import type { MessageErrorFrame } from '@campus/protocol';
import type { CampusDatabase } from '@campus/sync';

type RefusalHandler = (error: string) => void;

/** The (deviceId, mid) of the queued write that carries entity `id`: all a refusal names of it. */
async function queuedKeyOf(db: CampusDatabase, id: string): Promise<string | null> {
  // The outbox indexes `frame.id` (sync database v3).
  const row = await db.outbox.where('frame.id').equals(id).first();
  return row ? `${row.deviceId}:${row.mid}` : null;
}

/**
 * The outbox writes a part of this screen queued and wants to hear about when the server refuses them. A
 * refusal names only (deviceId, mid), so the write is looked up in the outbox as soon as it is queued; a
 * refusal nobody claims is left to the feed (an error line and a reload).
 */
export class QueuedWrites {
  private readonly watched = new Map<Promise<string | null>, RefusalHandler>();

  /** Watches the write carrying entity `id`; the returned function stops watching. */
  watch(db: CampusDatabase, id: string, onRefused: RefusalHandler): () => void {
    const key = queuedKeyOf(db, id).catch(() => null);
    this.watched.set(key, onRefused);
    return () => {
      this.watched.delete(key);
    };
  }

  /** Hands the refusal to whoever watches that write; false when nobody does. */
  async claim(refusal: MessageErrorFrame): Promise<boolean> {
    if (refusal.deviceId === undefined || refusal.mid === undefined) return false;
    const wanted = `${refusal.deviceId}:${refusal.mid}`;
    for (const [key, onRefused] of [...this.watched]) {
      if ((await key) !== wanted) continue;
      this.watched.delete(key);
      onRefused(refusal.error);
      return true;
    }
    return false;
  }
}
