import type {
  Change,
  ChangeOf,
  ChangeType,
  ClientFrame,
  MutationInput,
  MutationOf,
  MutationType,
  RealtimeErrorReason,
  ServerFrame,
  SyncResetFrame,
} from '@campus/protocol';
import type { CampusDatabase, OutboxRow } from './database';
import type { PresenceFrame } from './ephemeral-state';
import { enqueueRow, type Writer } from './writer';

/**
 * How a feature plugs into the client engine (sync-client.ts, outbox.ts, apply-changes.ts), which knows no
 * feature: per mutation its client side (rollback on refusal, settle on ack), per change its applier. The
 * composition (features/index.ts) builds one table of each, typed over every MutationType / ChangeType of
 * @campus/protocol, so a mutation or change without its client handler fails the typecheck.
 */

/** A refused mutation: its frame, the undo data its write stored, and why the server refused it. */
export interface Refusal<T extends MutationType, U> {
  db: CampusDatabase;
  frame: MutationOf<T>;
  undo: U | undefined;
  /** The outbox key of the refused row: rows above it were queued later (they may decide the state). */
  key: number;
  error: string;
  code: RealtimeErrorReason;
}

/** An acknowledged mutation, already removed from the outbox. */
export interface Settled<T extends MutationType> {
  db: CampusDatabase;
  frame: MutationOf<T>;
}

/**
 * The client side of one mutation type. Both hooks run inside the engine's transaction over every synced
 * table. A mutation without an optimistic effect to undo has no `rollback`.
 */
export interface MutationSide<T extends MutationType, U> {
  rollback?: (refusal: Refusal<T, U>) => Promise<void>;
  settled?: (settled: Settled<T>) => Promise<void>;
}

/** A mutation's input before the engine gives it (deviceId, mid). */
export type MutationInputOf<T extends MutationType> = Extract<MutationInput, { type: T }>;

/** A mutation's client side plus its typed `enqueue`: the undo it stores is the undo its rollback gets. */
export interface ClientMutation<T extends MutationType, U> extends MutationSide<T, U> {
  readonly type: T;
  enqueue: (w: Writer, input: MutationInputOf<T>, undo?: U) => Promise<OutboxRow>;
}

/** Defines a mutation's client side; its `U` is the feature's own undo data for that mutation. */
export function defineMutation<T extends MutationType, U = never>(
  type: T,
  side: MutationSide<T, U>,
): ClientMutation<T, U> {
  return { ...side, type, enqueue: (w, input, undo) => enqueueRow(w, input, undo) };
}

/**
 * The client side of every mutation. `never` as the undo type admits every feature's own undo type (a
 * function taking some undo accepts the `never` the engine could pass); the engine hands back what was stored.
 */
export type MutationClients = { [T in MutationType]: ClientMutation<T, never> };

/** What a change applier gets besides the change. It runs inside the page's transaction. */
export interface ApplyContext {
  db: CampusDatabase;
  selfId: string;
  /** Runs `effect` once the transaction committed (in-memory state must not see an aborted change). */
  afterCommit(effect: () => void): void;
  /** Ephemeral state a change may end: a message from someone ends their typing indicator. */
  clearTyping(key: string, userId: string): void;
}

export type ChangeApplier<T extends ChangeType> = (ctx: ApplyContext, change: ChangeOf<T>) => Promise<void>;
export type ChangeAppliers = { [T in ChangeType]: ChangeApplier<T> };

/** `sync_reset`: replaces what the snapshot carries, inside the transaction that also sets the cursor. */
export type SnapshotApplier = (db: CampusDatabase, selfId: string, reset: SyncResetFrame) => Promise<void>;

/** Sends a frame on the live session (or on session `generation` only); false when it could not go out. */
export type FrameSender = (frame: ClientFrame, generation?: number) => boolean;

/** What the engine lends a client's features: the user's database and the live session to send on. */
export interface FeatureHost {
  db: CampusDatabase;
  send: FrameSender;
}

/**
 * An ephemeral frame (presence, typing: never logged) a feature keeps something of, e.g. a last-active time
 * in its cache. The engine's presence state takes every such frame first; a hook runs in the engine's task
 * queue, in order with the changes around it.
 */
export type EphemeralHook<T extends PresenceFrame['type']> = (
  ctx: { db: CampusDatabase; selfId: string },
  frame: Extract<PresenceFrame, { type: T }>,
) => Promise<void>;
export type EphemeralHooks = { [T in PresenceFrame['type']]?: EphemeralHook<T> };

/**
 * A server frame that is neither sync (changes, pages, answers, the handshake) nor presence or typing: a
 * feature's own live event (call signalling). The engine hands it over as it arrives: never stored, never
 * queued, not ordered with the changes.
 */
export type SessionFrame = Exclude<
  ServerFrame,
  Change | PresenceFrame | { type: 'welcome' | 'pong' | 'changes' | 'sync_reset' | 'ack' | 'message_error' }
>;
/** One handler per session frame type, so a new server frame without its client handler fails the typecheck. */
export type SessionFrameHandlers = {
  [T in SessionFrame['type']]: (frame: Extract<SessionFrame, { type: T }>) => void;
};

/** Everything the engine dispatches to, built for each client by the composition root (features/index.ts). */
export interface ClientFeatures {
  mutations: MutationClients;
  changes: ChangeAppliers;
  snapshot: readonly SnapshotApplier[];
  /**
   * After a reset committed: what the snapshot cannot carry is loaded again through REST. Errors are
   * ignored (the screen that shows it loads it again).
   */
  afterReset: readonly ((rest: RestContext) => Promise<unknown>)[];
  ephemeral: EphemeralHooks;
  /** Session frames (call signalling), by type. */
  frames: SessionFrameHandlers;
  /**
   * After every pull, on that session (`send(frame, generation)`): what the server must hear again because
   * frames sent while offline were dropped (e.g. the chat open on screen).
   */
  caughtUp: readonly ((generation: number) => void)[];
  /** The client stops: features clear their timers. */
  stop: readonly (() => void)[];
}

/** What a feature's REST loads need: the user's database and an authorized fetch of the server. */
export interface RestContext {
  db: CampusDatabase;
  selfId: string;
  baseUrl: string;
  token: string;
  fetchImpl: typeof fetch;
}
