import {
  REALTIME_TIMING,
  isChangeType,
  type Change,
  type ChangesFrame,
  type ClientFrame,
  type MessageErrorFrame,
  type ServerFrame,
  type SyncResetFrame,
  type UserRef,
} from '@campus/protocol';
import { applyChanges } from './apply-changes';
import type { FeatureApi, SyncClient, SyncClientOptions, TypingTarget } from './client-api';
import { openUserDatabase, syncTables, type CampusDatabase } from './database';
import { EphemeralStore, type PresenceFrame } from './ephemeral-state';
import type {
  ClientFeatures,
  EphemeralHook,
  FeatureHost,
  RestContext,
  SessionFrame,
  SessionFrameHandlers,
} from './feature-contract';
import { readCursor, writeCursor } from './meta';
import { acknowledge, rollback, rowsAfter, settle } from './outbox';
import { browserNetworkSignal, RealtimeConnection } from './realtime-connection';
import { TaskQueue } from './task-queue';
import { MutationIds, type ClientWrite, type Writer } from './writer';

/** offline: no session; pulling: catching up since the cursor (live pushes wait); live: caught up. */
type Phase = 'offline' | 'pulling' | 'live';

const isChange = (frame: ServerFrame): frame is Change => isChangeType(frame.type) && 'seq' in frame;

/** A session frame is one a feature registered a handler for; the rest of what is left is presence/typing. */
const isSessionFrame = (
  frame: SessionFrame | PresenceFrame,
  handlers: SessionFrameHandlers,
): frame is SessionFrame => Object.hasOwn(handlers, frame.type);

/**
 * The engine: one realtime session at a time, the pull-then-live handoff, the outbox, and dispatch of
 * mutations, changes and ephemeral frames through the features' tables. It knows no feature: the
 * composition root (create-client.ts) builds the tables for it and adds the features' own API.
 */
export abstract class SyncEngine implements Omit<SyncClient, keyof FeatureApi> {
  readonly db: CampusDatabase;
  readonly userId: string;
  private readonly self: UserRef;
  private readonly store = new EphemeralStore();
  private readonly queue = new TaskQueue((error) => console.error('[sync]', error));
  private readonly ids = new MutationIds();
  private readonly connection: RealtimeConnection;
  protected readonly rest: RestContext;
  private readonly features: ClientFeatures;
  private readonly errorListeners = new Set<(error: MessageErrorFrame) => void>();
  private phase: Phase = 'offline';
  /** The session whose pull this engine follows, and how far its outbox went out on it. */
  private session = 0;
  private sentKey = 0;
  /** Live pushes heard during a pull; applied after its last page (the cursor skips what the pull covered). */
  private held: Change[] = [];
  /** Consecutive live changes become one task and one transaction. */
  private openBatch: Change[] | null = null;

  /** `features` builds this client's feature tables on what the engine lends them. */
  constructor(options: SyncClientOptions, features: (host: FeatureHost) => ClientFeatures) {
    this.self = options.self;
    this.userId = options.self.id;
    this.db = options.db ?? openUserDatabase(options.self.id);
    this.rest = {
      db: this.db,
      selfId: this.userId,
      baseUrl: options.baseUrl,
      token: options.token,
      fetchImpl: options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init)),
    };
    this.connection = new RealtimeConnection({
      url: options.wsUrl,
      network: options.network === undefined ? browserNetworkSignal() : (options.network ?? undefined),
      token: options.token,
      WebSocketImpl: options.WebSocketImpl ?? globalThis.WebSocket,
      timing: { ...REALTIME_TIMING, ...options.timing },
      random: options.random ?? Math.random,
      // The pull goes out behind the hello; the welcome starts the session it belongs to (beginPull).
      opening: () => this.pullFrame(),
      events: {
        status: (status) => {
          if (status !== 'online') this.phase = 'offline';
          this.store.setStatus(status);
        },
        welcome: (_frame, generation) => this.schedule(() => this.beginPull(generation)),
        frame: (frame, generation) => this.receive(frame, generation),
        refused: (code) => this.store.setRefused(code),
      },
    });
    this.features = features({ db: this.db, send: (frame, generation) => this.send(frame, generation) });
  }

  getState = this.store.getState;
  subscribe = this.store.subscribe;

  start(): void {
    this.connection.start();
  }

  async stop(): Promise<void> {
    for (const stop of this.features.stop) stop();
    this.connection.stop();
    await this.queue.idle();
  }

  onMessageError(listener: (error: MessageErrorFrame) => void): () => void {
    this.errorListeners.add(listener);
    return () => {
      this.errorListeners.delete(listener);
    };
  }

  /** The one write entry: a feature's optimistic write, then its queued mutation goes out on the live session. */
  async run<A extends unknown[], R>(write: ClientWrite<A, R>, ...args: A): Promise<R> {
    const writer: Writer = { db: this.db, ids: this.ids, self: this.self };
    const result = await write(writer, ...args);
    this.flushSoon();
    return result;
  }

  typing(target: TypingTarget): void {
    this.connection.send({ type: 'typing', ...target });
  }

  stopTyping(target: TypingTarget): void {
    this.connection.send({ type: 'stop_typing', ...target });
  }

  /** Every task that is not a live change closes the current batch, so tasks keep arrival order. */
  private schedule(task: () => Promise<void>): void {
    this.openBatch = null;
    void this.queue.push(task);
  }

  private receive(frame: ServerFrame, generation: number): void {
    if (isChange(frame)) {
      if (this.openBatch) {
        this.openBatch.push(frame);
        return;
      }
      const batch: Change[] = [frame];
      this.openBatch = batch;
      void this.queue.push(async () => {
        if (this.openBatch === batch) this.openBatch = null;
        await this.guarded(generation, () => this.applyLive(batch));
      });
      return;
    }
    switch (frame.type) {
      case 'changes':
        this.schedule(() => this.guarded(generation, () => this.applyPage(frame, generation)));
        return;
      case 'sync_reset':
        this.schedule(() => this.guarded(generation, () => this.applyReset(frame, generation)));
        return;
      case 'ack':
        this.schedule(() => this.acknowledged(frame.deviceId, frame.mid));
        return;
      case 'message_error':
        this.schedule(() => this.refuse(frame));
        return;
      case 'welcome':
      case 'pong':
        return;
      default:
        if (isSessionFrame(frame, this.features.frames)) this.sessionFrame(frame);
        else this.ephemeral(frame);
    }
  }

  /** Call signalling, random talk: to its feature at once, never through the task queue (it waits for no change). */
  private sessionFrame(frame: SessionFrame): void {
    // The table is typed per frame type; `frame` is of the type it is looked up by.
    const handler = this.features.frames[frame.type] as (frame: SessionFrame) => void;
    handler(frame);
  }

  /** Presence and typing: the engine's in-memory state first, then what a feature keeps of the frame. */
  private ephemeral(frame: PresenceFrame): void {
    this.store.apply(frame);
    // The table is typed per frame type; `frame` is of the type it is looked up by.
    const hook = this.features.ephemeral[frame.type] as EphemeralHook<PresenceFrame['type']> | undefined;
    if (hook) this.schedule(() => hook({ db: this.db, selfId: this.userId }, frame));
  }

  /**
   * Applies what a session received, only while that session lives. If applying fails (storage full, an
   * aborted transaction) the session is dropped: the cursor did not move past the lost changes (it is saved
   * in their transaction) and later pages of that session are skipped, so the next session pulls them again.
   */
  private async guarded(generation: number, apply: () => Promise<void>): Promise<void> {
    if (!this.connection.isLive(generation)) return;
    try {
      await apply();
    } catch (error) {
      if (this.connection.isLive(generation)) this.connection.restart();
      throw error;
    }
  }

  /**
   * A new socket's pull, read through the task queue: after every task of the sessions before it (one
   * still applying a page moves the cursor), before anything of its own (nothing arrives before its welcome).
   */
  private pullFrame(): Promise<ClientFrame> {
    return new Promise((resolve, reject) => {
      this.schedule(() => readCursor(this.db).then((cursor) => resolve({ type: 'pull', cursor }), reject));
    });
  }

  /** The welcome of the session whose pull went out behind its hello: live pushes wait for the pull's end. */
  private async beginPull(generation: number): Promise<void> {
    if (!this.connection.isLive(generation)) return;
    this.phase = 'pulling';
    this.session = generation;
    this.sentKey = 0;
    this.held = [];
  }

  private async applyPage(page: ChangesFrame, generation: number): Promise<void> {
    await this.apply(page.changes, page.cursor);
    if (generation !== this.session || !this.connection.isLive(generation)) return;
    // The server streams every page of one pull; the last one says hasMore false.
    if (!page.hasMore) await this.finishPull(generation);
  }

  private async applyReset(reset: SyncResetFrame, generation: number): Promise<void> {
    await this.db.transaction('rw', syncTables(this.db), async () => {
      for (const apply of this.features.snapshot) await apply(this.db, this.userId, reset);
      await writeCursor(this.db, reset.cursor);
    });
    for (const load of this.features.afterReset) load(this.rest).catch(() => undefined);
    if (generation === this.session && this.connection.isLive(generation)) await this.finishPull(generation);
  }

  /** Caught up: apply what was pushed meanwhile, then send the outbox in order. */
  private async finishPull(generation: number): Promise<void> {
    if (this.phase !== 'pulling') return;
    this.phase = 'live';
    this.connection.caughtUp(generation);
    const held = this.held;
    this.held = [];
    if (held.length) await this.apply(held);
    await this.flush(generation);
    for (const caughtUp of this.features.caughtUp) caughtUp(generation);
  }

  private async applyLive(batch: Change[]): Promise<void> {
    if (this.phase === 'pulling') {
      this.held.push(...batch);
      return;
    }
    await this.apply(batch);
  }

  private apply(changes: readonly Change[], pageCursor?: number): Promise<Change[]> {
    const env = {
      appliers: this.features.changes,
      selfId: this.userId,
      clearTyping: (key: string, userId: string) => this.store.clearTyping(key, userId),
    };
    return applyChanges(this.db, env, changes, pageCursor);
  }

  private flushSoon(): void {
    const generation = this.session;
    this.schedule(() => this.flush(generation));
  }

  /** Sends the queued mutations this session has not sent yet, in queue order. */
  private async flush(generation: number): Promise<void> {
    if (this.phase !== 'live' || generation !== this.session || !this.connection.isLive(generation)) return;
    for (const row of await rowsAfter(this.db, this.sentKey)) {
      if (!this.send(row.frame, generation)) return;
      this.sentKey = row.key ?? this.sentKey;
    }
  }

  private async acknowledged(deviceId: string, mid: number): Promise<void> {
    await this.db.transaction('rw', syncTables(this.db), async () => {
      const row = await settle(this.db, deviceId, mid);
      if (row) await acknowledge(this.db, this.features.mutations, row);
    });
  }

  /** A refused frame: a queued mutation is settled and rolled back; listeners get the frame unchanged. */
  private async refuse(frame: MessageErrorFrame): Promise<void> {
    const { deviceId, mid } = frame;
    if (deviceId !== undefined && mid !== undefined) {
      await this.db.transaction('rw', syncTables(this.db), async () => {
        const row = await settle(this.db, deviceId, mid);
        if (row) await rollback(this.db, this.features.mutations, row, frame);
      });
    }
    for (const listener of [...this.errorListeners]) listener(frame);
  }

  private send(frame: ClientFrame, generation?: number): boolean {
    return this.connection.send(frame, generation);
  }
}
