import type {
  Change,
  ChangeOf,
  ChangeType,
  ClientFrame,
  MutationOf,
  MutationType,
  ServerFrame,
  SyncResetFrame,
} from '@campus/protocol';
import type { Audience } from './audiences';
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

/**
 * Who may send a mutation under the access policy (issue 11; lib/auth/access.ts). Every handler declares it,
 * so a new mutation cannot be added without deciding:
 * - `open`: every signed-in user, limited accounts included (marking read, deleting one's own);
 * - `participation`: taking part (posting, commenting, reacting, group messages): the engine refuses it
 *   with `verificationRequired` before `apply` unless the user's status, read fresh in the transaction,
 *   gives full access (`Features.participation`);
 * - `handler`: depends on the frame, and `apply` calls the check itself (a direct message: answering
 *   someone who wrote first is open, starting a conversation is participation).
 */
export type MutationAccess = 'open' | 'participation' | 'handler';

/**
 * Refuses (throws the policy's `Refusal`) unless `userId` may take part now. One primary-key read of the
 * user's status inside the caller's transaction, so an admin's decision counts from the next mutation on,
 * on sockets already open; none at all when the deployment turned the policy off.
 */
export type ParticipationCheck = (tx: Pick<Tx, 'first'>, userId: string) => Promise<void>;

export interface MutationHandler<F> {
  /** Who may send it (see MutationAccess); `participation` is checked by the engine before `apply`. */
  readonly access: MutationAccess;
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

/** What a change hook or a session frame handler may do with the connection it runs for. */
export interface Session {
  readonly userId: string;
  send(frame: ServerFrame): void;
  /** Subscribes this connection to one more audience (a group just joined). */
  joinAudience(audience: Audience): void;
  hasAudience(audience: Audience): boolean;
  /** Presence and typing go between contacts only (the session hooks say who they are). */
  isContact(userId: string): boolean;
  /**
   * The user opened the chat with `peerId` (a contact; undefined: a stranger's, or none): that user's
   * online/offline now reaches this connection, and the online list of its contacts is sent again.
   */
  openChat(peerId: string | undefined): void;
  /** The connection has closed (a feature that awaited something checks it before holding on to it). */
  readonly closed: boolean;
}

export interface ChangeHook<C> {
  /**
   * Runs when a committed change reaches a connection, in every state, even while the connection's pull
   * has yet to carry it: what must hold from now on whatever the client has seen (a group just joined: its
   * audience, so the group's next messages reach this connection live). Must not send.
   */
  reached?(session: Session, change: C): void;
  /**
   * Runs when a committed change is delivered live to one connection (not for pulled pages): delivery
   * receipts.
   */
  delivered?(session: Session, change: C): void;
}

export type ChangeHooks = { [T in ChangeType]: ChangeHook<ChangeOf<T>> };

/** The recent state a `sync_reset` carries. */
export type SnapshotBody = Omit<SyncResetFrame, 'type' | 'cursor'>;

/** Chat's ephemeral frames: opening a chat or a group, typing. */
export type ChatSessionFrame = Extract<
  ClientFrame,
  { type: 'join_chat' | 'join_group' | 'typing' | 'stop_typing' }
>;
/** Call signalling (issue 12): ephemeral, never stored. */
export type CallSessionFrame = Extract<
  ClientFrame,
  { type: 'call:offer' | 'call:answer' | 'call:reject' | 'call:end' | 'call:resume' }
>;
/** Random and focused talk (issue 13): queues, rooms, relayed text and signalling, never in the database. */
export type RandomSessionFrame = Extract<
  ClientFrame,
  {
    type:
      | 'find-partner'
      | 'join-random'
      | 'leave-random-queue'
      | 'leave-random-room'
      | 'random-resume'
      | 'chat-message'
      | 'random-typing'
      | 'call-user'
      | 'answer-call'
      | 'end-call'
      | 'random-reveal'
      | 'random-action';
  }
>;
/** Client frames a feature answers besides mutations (the engine itself answers hello, ping and pull). */
export type SessionFrame = ChatSessionFrame | CallSessionFrame | RandomSessionFrame;
/** One handler per frame type of `F`. */
export type FrameHandlers<F extends SessionFrame> = {
  [T in F['type']]: (session: Session, frame: Extract<F, { type: T }>) => void | Promise<void>;
};
/** The engine's whole table: a session frame without its handler does not compile (server/src/features.ts). */
export type SessionFrameHandlers = FrameHandlers<SessionFrame>;

/**
 * What the engine asks the features about a connection's life. The engine keeps the mechanisms (audience
 * subscriptions, presence to contacts only, the pull-then-live handoff); the features say what fills them.
 */
export interface SessionHooks {
  /**
   * At sign-in: the audiences besides the user's own, the people whose presence the user may see, and those
   * with a block between them and the user either way (`separated`: never contacts, and no typing between
   * them in a group they share). Blocks committing meanwhile reach the connection through the hub.
   */
  open(userId: string): Promise<{
    audiences: readonly Audience[];
    contacts: readonly string[];
    separated?: readonly string[];
  }>;
  /**
   * The people whose presence each user may see, as `open` reads them (one read for all): their contacts
   * hear of users a dead node took offline, with no connection of theirs to say it.
   */
  contactsOf(userIds: readonly string[]): Promise<ReadonlyMap<string, readonly string[]>>;
  /** The people a change makes contacts of `userId` (a first message, a shared group); called per change. */
  contactsMadeBy(userId: string, change: Change): readonly string[];
  /** A device starting over (cursor 0, older than the log keeps, or from another database). */
  snapshot(userId: string): Promise<SnapshotBody>;
  /** A pull or snapshot handed the connection everything up to `seq` (delivery receipts). */
  caughtUp(session: Session, seq: number): void;
  /** The user's last connection closed; resolves once `lastActiveAt` is stored, before contacts hear it. */
  wentOffline(userId: string, lastActiveAt: string): Promise<void>;
  /**
   * One connection of a signed-in user closed (any of them, not only the last; not while the server stops):
   * state a feature binds to a connection (the side of a call it holds) lets go of it. Must not throw.
   */
  closed?(session: Session): void;
  /** Chat's frames; the composition root joins the other features' (calls, random) into the engine's table. */
  frames: FrameHandlers<ChatSessionFrame>;
}

/** The session hooks the engine runs: a feature's hooks with every feature's frames in one table. */
export type EngineSessionHooks = SessionHooks & { frames: SessionFrameHandlers };

/** Everything the engine knows of the features, built by server/src/features.ts. */
export interface Features {
  mutations: MutationHandlers;
  /** The access policy's check for `participation` mutations (and handlers that decide per frame). */
  participation: ParticipationCheck;
  changes: ChangeHooks;
  session: EngineSessionHooks;
  /** The server is stopping, before the database closes: batched writers flush or drop what they hold. */
  close(): Promise<void>;
}
