import { z } from 'zod';
import { frameId, type Change, type EphemeralFrame } from '@campus/protocol';
import type { Audience } from './audiences';

/** A change after commit: the object and its wire JSON, serialised once and reused for every push. */
export interface CommittedChange {
  change: Change;
  json: string;
  /** `json` as UTF-8, encoded once: a string given to `ws` is measured and encoded again per recipient. */
  frame: Buffer;
  audiences: readonly Audience[];
}

/**
 * The publish/subscribe seam between committing and delivering. The transactor publishes each commit's
 * changes once, after COMMIT, in seq order; every node's hub subscribes and pushes them to its own
 * connections whose audiences match.
 *
 * What a Redis implementation (several nodes, DATABASE_URL + REDIS_URL) must provide:
 * - publish one message per commit on one channel (`changes`), carrying each change's `json` and its
 *   audiences (the object and `frame` are rebuilt from `json` on receipt; never re-serialised);
 * - deliver to every node, this one included, in seq order: a subscriber that sees a gap in seqs (a lost
 *   message, a reconnect to Redis) must read the missing range from the change log before going on, since
 *   Redis pub/sub is at-most-once;
 * - publishing must not block the commit path (fire and forget after COMMIT; the log is the truth).
 */
export interface ChangeBus {
  publish(changes: readonly CommittedChange[]): void;
  /** Returns the unsubscribe. */
  subscribe(listener: (changes: readonly CommittedChange[]) => void): () => void;
}

/**
 * Ephemeral frames (typing, presence) to users or to an audience's members, never stored. A Redis
 * implementation publishes `{ users | audience, except, json }` on a second channel; each node delivers
 * to its own connections. Presence itself (who is online) must then live in Redis too (a set per user with
 * a TTL refreshed by heartbeats), so `isOnline` answers for the whole cluster.
 */
export interface EphemeralTarget {
  users?: Iterable<string>;
  audience?: Audience;
  /**
   * Left out of an audience's delivery (the typer), and so is each connection separated from them by a block
   * (each node filters its own connections, which know their separations).
   */
  exceptUserId?: string;
}

/**
 * Who may hear whom changed between two users, after the commit that changed it: each node applies it to
 * its own connections of either (hub.ts), since a connection keeps its contacts and separations in memory
 * and the other's connections may be on any node. Never stored: a connection signing in later reads them.
 * With REDIS_URL it crosses nodes as an internal message, parsed with this schema all the same.
 */
export const contactChangeSchema = z.discriminatedUnion('k', [
  // `a` blocked `b`: separated, no longer contacts.
  z.object({ k: z.literal('separate'), a: frameId, b: frameId }),
  // No block either way remains: no longer separated, and contacts again when `contacts` (they share one).
  z.object({ k: z.literal('reunite'), a: frameId, b: frameId, contacts: z.boolean() }),
  // An unfriend that left them sharing nothing: no longer contacts (not separated: a later chat may join them).
  z.object({ k: z.literal('part'), a: frameId, b: frameId }),
]);
export type ContactChange = z.infer<typeof contactChangeSchema>;

export interface EphemeralBus {
  publish(target: EphemeralTarget, frame: EphemeralFrame): void;
  subscribe(listener: (target: EphemeralTarget, json: string) => void): () => void;
  /** Delivered to this node's subscribers at once (before it returns), then to every other node's. */
  publishContacts(change: ContactChange): void;
  subscribeContacts(listener: (change: ContactChange) => void): () => void;
}

/** Subscribers are called synchronously, in subscription order; one failing does not stop the others. */
export class Listeners<A extends unknown[]> {
  private list: ((...args: A) => void)[] = [];

  constructor(private readonly onError: (err: unknown) => void) {}

  add(listener: (...args: A) => void): () => void {
    this.list = [...this.list, listener];
    return () => {
      this.list = this.list.filter((l) => l !== listener);
    };
  }

  call(...args: A): void {
    for (const listener of this.list) {
      try {
        listener(...args);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}

/** One process: publishing is calling the subscribers. */
export function inProcessChangeBus(onError: (err: unknown) => void): ChangeBus {
  const listeners = new Listeners<[readonly CommittedChange[]]>(onError);
  return {
    publish: (changes) => listeners.call(changes),
    subscribe: (listener) => listeners.add(listener),
  };
}

export function inProcessEphemeralBus(onError: (err: unknown) => void): EphemeralBus {
  const listeners = new Listeners<[EphemeralTarget, string]>(onError);
  const contactListeners = new Listeners<[ContactChange]>(onError);
  return {
    publish: (target, frame) => listeners.call(target, JSON.stringify(frame)),
    subscribe: (listener) => listeners.add(listener),
    publishContacts: (change) => contactListeners.call(change),
    subscribeContacts: (listener) => contactListeners.add(listener),
  };
}
