import { z } from 'zod';
import { StateWriter, type Lease } from './lease';
import type { Session } from './registry';
import { RollCall } from './roll-call';

/** A connection as a feature's stored state names it: the node holding the socket, and that node's id for it. */
export interface SessionRef {
  readonly node: string;
  readonly conn: string;
}

/** Stored references are read back from Redis: strict. */
export const sessionRefSchema = z.strictObject({
  node: z.string().min(1).max(64),
  conn: z.string().regex(/^\d{1,15}$/),
});

/** A stored field read back: its JSON checked by `schema` (strict), or undefined; never used unchecked. */
export function parseStored<T>(schema: z.ZodType<T>, raw: string): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(raw));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a coordinator hands its feature for as long as this node coordinates, with REDIS_URL: the feature's
 * hashes in Redis (`<prefix>:<channel>:<name>`), where it keeps what the next coordinator needs to carry on,
 * and names for connections that stay valid across nodes. Writes made in one turn of the event loop go out
 * together in one round trip, fenced by the lease (lease.ts); once the term is over they are dropped.
 */
export interface Handover {
  /** Every field of one hash, as the previous coordinator left it. */
  read(name: string): Promise<Record<string, string>>;
  set(name: string, field: string, value: string): void;
  del(name: string, field: string): void;
  /** Empties a hash (before it is written again in full). */
  clear(name: string): void;
  /**
   * Settles once every write asked for so far has reached Redis (one that failed is sent again until it
   * does) or the term ended: what a client is told after this survives a crash of this node.
   */
  written(): Promise<void>;
  ref(session: Session): SessionRef;
  /**
   * The connection a stored reference names, if it can still be: one of this node's, open and signed in as
   * `userId`, or another node's (the roll call after the load drops those that are gone).
   */
  session(ref: SessionRef, userId: string): Session | undefined;
}

/**
 * Runs `fn` once everything `term` was asked to write so far is in Redis, or the term ended;
 * at once without a term (one node, no Redis). What a client is told from `fn` survives a crash of this
 * node: the coordinators tell a wait, a match, a ring or an answer only then.
 */
export function whenWritten(term: Handover | undefined, fn: () => void): void {
  if (!term) return fn();
  void term.written().then(fn);
}

/**
 * One term of this node as the coordinator: the feature's writes (lease.ts batches and fences them), and
 * the other nodes' connections its load named (the roll call asks about them).
 */
export class Term implements Handover {
  readonly roll = new RollCall();
  readonly writes: StateWriter;
  readonly ref: Handover['ref'];
  readonly session: Handover['session'];

  constructor(
    private readonly lease: Lease,
    /** The hashes' names, in the order of the lease's state keys. */
    private readonly names: readonly string[],
    sessions: Pick<Handover, 'ref' | 'session'>,
  ) {
    this.writes = new StateWriter(lease);
    this.ref = sessions.ref;
    this.session = sessions.session;
  }

  read(name: string): Promise<Record<string, string>> {
    return this.lease.read(this.index(name));
  }

  set(name: string, field: string, value: string): void {
    this.writes.push(['set', this.index(name), field, value]);
  }

  del(name: string, field: string): void {
    this.writes.push(['del', this.index(name), field]);
  }

  clear(name: string): void {
    this.writes.push(['clear', this.index(name)]);
  }

  written(): Promise<void> {
    return this.writes.flush().catch(() => undefined);
  }

  private index(name: string): number {
    const i = this.names.indexOf(name);
    if (i < 0) throw new Error(`not a state key of this feature: ${name}`);
    return i;
  }
}
