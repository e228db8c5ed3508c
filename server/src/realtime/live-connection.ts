import type { AckFrame, MessageErrorFrame } from '@campus/protocol';
import type { Session } from './registry';

/** What the mutation batch needs of the connection that sent a mutation. */
export interface MutationSender {
  readonly userId: string;
  /** Frames sent until `uncork` leave in one write: a sender's own change frame and its ack. Calls nest. */
  cork(): void;
  uncork(): void;
  /** An ack or refusal of a mutation: after the change frames of its commit, even while those are held. */
  sendAfterChanges(frame: AckFrame | MessageErrorFrame): void;
}

/**
 * A signed-in `/ws` connection as the engine's frame handlers see it (realtime/connection.ts implements
 * it). Kept apart from the class so the handlers and the connection do not import each other.
 */
export interface LiveConnection extends Session, MutationSender {
  readonly audiences: ReadonlySet<string>;
  /** A reset snapshot is being built: live changes are held meanwhile. */
  readonly syncing: boolean;
  readonly closed: boolean;
  /** A frame already encoded by @campus/protocol's encoders (a pull page). */
  sendEncoded(json: string): void;
  /** Hold live changes until `goLive` (a snapshot is being built). */
  hold(): void;
  /** The catch-up is answered up to `cursor`: from now on changes go out as they commit. */
  goLive(cursor: number): void;
  close(code: number, reason: string): void;
  /**
   * Reads no frame more from now on (none is applied after this one), then closes with `code`: at once, or
   * once `after` settles (the answers to what was read before still go out on this socket).
   */
  stopReading(code: number, reason: string, after?: Promise<unknown>): void;
}
