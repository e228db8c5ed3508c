import type { ChangeOf, ChangeType, MutationOf, MutationType, ServerFrame } from '@campus/protocol';
import type { Tx } from './transaction';

/**
 * How features plug into the engine (docs/adding-a-feature.md). The engine knows no feature: the
 * composition root (server/src/features.ts) builds one table of mutation handlers and one of change hooks
 * from the modules and hands them to the runtime. Both tables are typed against the protocol's lists, so a
 * mutation or change without its entry does not compile.
 */

/** Who is writing. */
export interface Actor {
  readonly userId: string;
}

export interface MutationHandler<F> {
  /**
   * Authorize and write, inside the engine's transaction, after the exactly-once check. Refuse by throwing
   * a `Refusal` (lib/refusal.ts) before writing anything; the engine answers `message_error` with its code
   * and text and remembers it for a resend. Changes are emitted through `tx.emit` with their audiences.
   */
  apply(tx: Tx, frame: F, actor: Actor): Promise<void>;
  /** `message_error.context` (and `groupId`) of a refusal; the frame type when absent. */
  refusalContext?(frame: F): { context: string; groupId?: string };
}

export type MutationHandlers = { [T in MutationType]: MutationHandler<MutationOf<T>> };

/** What a change hook may do with the connection that is receiving the change. */
export interface Session {
  readonly userId: string;
  send(frame: ServerFrame): void;
  /** Subscribes this connection to one more audience (a group just joined). */
  joinAudience(audience: string): void;
}

export interface ChangeHook<C> {
  /**
   * Runs when a committed change is delivered live to one connection (not for pulled pages): delivery
   * receipts, a new group's audience, contacts learnt for presence.
   */
  delivered?(session: Session, change: C): void;
}

export type ChangeHooks = { [T in ChangeType]: ChangeHook<ChangeOf<T>> };
