import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { Redis } from 'ioredis';
import type { EphemeralFrame } from '@campus/protocol';
import type { RedisConfig } from '../config';
import { createLiveSockets, type LiveSockets } from '../lib/auth/live-sockets';
import type { Logger } from '../lib/logger';
import type { Audience } from './audiences';
import {
  contactChangeSchema,
  Listeners,
  type ChangeBus,
  type CommittedChange,
  type ContactChange,
  type EphemeralBus,
  type EphemeralTarget,
} from './bus';
import type { ChangeLogStatements, LogRow } from './change-log';
import type { PgChangeLog } from './pg-change-log';

/**
 * REDIS_URL: the buses of realtime/bus.ts and the live-socket registry across nodes. One connection
 * publishes, another subscribes (a subscribed connection can do nothing else); ioredis reconnects both
 * and resubscribes by itself. Every message starts with its node's id and a newline, so a node skips its
 * own (it delivered them when publishing) without parsing them.
 */
export interface RedisLink {
  readonly nodeId: string;
  /** Fire and forget: a failure is logged, never thrown (the change log is the truth). */
  publish(channel: string, body: string): void;
  /** Routes the channel's messages from other nodes to `handler` (the node id already stripped). */
  listen(channel: string, handler: (body: string) => void): void;
  /** After every reconnect of the subscriber (not the first connect). */
  onReconnect(fn: () => void): void;
  /** The subscriber connection, for tests that drop messages on purpose. */
  readonly subscriber: Redis;
  /**
   * The command connection (the publisher's): shared state across nodes (presence, queues, counters).
   * Its offline queue is off, so a command while Redis is down rejects at once instead of piling up.
   */
  readonly client: Redis;
  close(): Promise<void>;
}

/** Every channel a node listens on: one per kind of cross-node traffic. */
const CHANNELS = ['changes', 'ephemeral', 'revoke', 'presence', 'calls', 'random', 'notes'] as const;

/** Connects and subscribes; rejects when Redis does not answer within `timeoutMs`. */
export async function connectRedis(config: RedisConfig, log: Logger, timeoutMs = 10_000): Promise<RedisLink> {
  // Loaded here, not at start: a node without REDIS_URL never needs it.
  const { Redis } = await import('ioredis');
  const nodeId = randomUUID();
  const name = (channel: string) => `${config.prefix}:${channel}`;
  // The publisher drops what it cannot send now: a commit never waits for Redis, and the other nodes read
  // what they missed from the change log (gap check) once Redis is back.
  const pub = new Redis(config.url, { enableOfflineQueue: false, lazyConnect: true });
  const sub = new Redis(config.url, { lazyConnect: true });
  const handlers = new Map<string, (body: string) => void>();
  const reconnectHooks: (() => void)[] = [];
  let warned = false;
  const warn = (err: unknown, what: string) => {
    if (warned) return;
    warned = true;
    log.warn({ err }, `redis: ${what} (further failures are not logged until it is back)`);
  };
  pub.on('error', (err) => warn(err, 'publisher connection failed'));
  sub.on('error', (err) => warn(err, 'subscriber connection failed'));
  pub.on('ready', () => (warned = false));
  let readyOnce = false;
  sub.on('ready', () => {
    warned = false;
    if (!readyOnce) {
      readyOnce = true;
      return;
    }
    log.info('redis: subscriber reconnected');
    for (const fn of reconnectHooks) fn();
  });
  sub.on('message', (channel: string, message: string) => {
    const cut = message.indexOf('\n');
    if (cut < 0 || message.slice(0, cut) === nodeId) return;
    handlers.get(channel)?.(message.slice(cut + 1));
  });

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Redis at REDIS_URL did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([
      Promise.all([pub.connect(), sub.connect()]).then(() => sub.subscribe(...CHANNELS.map(name))),
      deadline,
    ]);
  } catch (err) {
    pub.disconnect();
    sub.disconnect();
    throw err;
  } finally {
    clearTimeout(timer);
  }

  return {
    nodeId,
    subscriber: sub,
    client: pub,
    publish(channel, body) {
      pub.publish(name(channel), `${nodeId}\n${body}`).catch((err: unknown) => warn(err, 'publish failed'));
    },
    listen(channel, handler) {
      handlers.set(name(channel), handler);
    },
    onReconnect(fn) {
      reconnectHooks.push(fn);
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

/**
 * Where the bus reads what it missed: SQLite's statements on the engine's handle (synchronous; a gap is
 * filled in the same turn), or PostgreSQL's pool (asynchronous; gap fills run one after another, in order).
 */
export type BusLog =
  | {
      kind: 'sqlite';
      /** The engine's handle: while a transaction is open on it, its snapshot may not show a gap yet. */
      sqlite: SQLite.Database;
      log: Pick<ChangeLogStatements, 'maxSeq' | 'entriesBetween'>;
    }
  | {
      kind: 'postgres';
      log: Pick<PgChangeLog, 'maxSeq' | 'entriesBetween'>;
      /** The log's end when the node starts (`await log.maxSeq()`): delivery goes on from there. */
      startSeq: number;
    };

export interface RedisChangeBusOptions {
  link: RedisLink;
  source: BusLog;
  gapCheckMs: number;
  onError: (err: unknown) => void;
}

function fromRow(row: LogRow & { audiences: readonly string[] }): CommittedChange {
  return {
    change: JSON.parse(row.payload) as CommittedChange['change'],
    json: row.payload,
    frame: Buffer.from(row.payload),
    audiences: row.audiences as readonly Audience[],
  };
}

/**
 * The change bus across nodes. A commit is delivered here at once (before its acks, as in one process)
 * and published as one message: `[[seq, audiences]…]` on one line, then each change's json on its own
 * line, as committed (JSON never holds a raw newline). A node delivers in seq order: a message whose first
 * seq is past the last one delivered here (a lost message, a reconnect) first reads the missing range from
 * the change log; seqs already delivered (a node's own, or another's adopted by a later commit) are skipped.
 * A periodic check, and one on every reconnect, reads what was committed but never arrived.
 *
 * On PostgreSQL the log's reads are asynchronous: what follows on from the last seq delivered still goes
 * out at once, while anything that needs a read of the log first queues on one promise chain (gap fills
 * and checks in the order they came; each skips what was delivered meanwhile).
 */
export class RedisChangeBus implements ChangeBus {
  private readonly listeners: Listeners<[readonly CommittedChange[]]>;
  private delivered: number;
  /** Received while this handle was inside a transaction (its snapshot may not show the gap): for later. */
  private waiting: CommittedChange[] = [];
  /** PostgreSQL: the gap fills and checks, one after another. */
  private chain: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: RedisChangeBusOptions) {
    this.listeners = new Listeners(options.onError);
    const { source } = options;
    this.delivered = source.kind === 'sqlite' ? source.log.maxSeq() : source.startSeq;
    options.link.listen('changes', (body) => this.receive(body));
    options.link.onReconnect(() => void this.catchUp());
    this.timer = setInterval(() => void this.catchUp(), options.gapCheckMs);
    this.timer.unref();
  }

  /** The last seq delivered to this node's connections (the transactor's pull reads up to it). */
  deliveredSeq(): number {
    return this.delivered;
  }

  publish(changes: readonly CommittedChange[]): void {
    // Entries of another node this one adopted and already delivered need not go round again.
    const fresh = changes.filter((item) => item.change.seq > this.delivered);
    if (!fresh.length) return;
    this.deliver(fresh);
    const header = JSON.stringify(fresh.map((item) => [item.change.seq, item.audiences]));
    this.options.link.publish('changes', `${header}\n${fresh.map((item) => item.json).join('\n')}`);
  }

  subscribe(listener: (changes: readonly CommittedChange[]) => void): () => void {
    return this.listeners.add(listener);
  }

  /**
   * Changes committed (by any node) that never arrived: read from the log and delivered in order. Resolves
   * once that is done (on SQLite at once, or with a retry scheduled while the handle is in a transaction).
   */
  catchUp(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const { source } = this.options;
    if (source.kind === 'sqlite') {
      this.checkGap(source);
      return Promise.resolve();
    }
    return this.enqueue(async () => {
      const latest = await source.log.maxSeq();
      if (latest <= this.delivered) return;
      this.emitOrdered((await source.log.entriesBetween(this.delivered, latest)).map(fromRow));
    });
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
  }

  private receive(body: string): void {
    if (this.closed) return;
    try {
      const lines = body.split('\n');
      const header = JSON.parse(lines[0]!) as [number, Audience[]][];
      const items: CommittedChange[] = [];
      header.forEach(([seq, audiences], i) => {
        if (seq <= this.delivered) return;
        const json = lines[i + 1]!;
        items.push({
          change: JSON.parse(json) as CommittedChange['change'],
          json,
          frame: Buffer.from(json),
          audiences,
        });
      });
      if (items.length) this.deliver(items);
    } catch (err) {
      this.options.onError(err);
    }
  }

  /** `items` in seq order; what is already delivered is skipped, a gap before them read from the log. */
  private deliver(items: readonly CommittedChange[]): void {
    const { source } = this.options;
    if (source.kind === 'postgres') return this.deliverAfterLog(source, items);
    let batch = (
      this.waiting.length ? [...this.waiting, ...items].sort((a, b) => a.change.seq - b.change.seq) : items
    ).filter((item) => item.change.seq > this.delivered);
    this.waiting = [];
    if (!batch.length) return;
    const first = batch[0]!.change.seq;
    if (first > this.delivered + 1) {
      // A commit or read is open on this handle: its snapshot may not show the gap yet. Soon, in order.
      if (source.sqlite.inTransaction) {
        this.waiting = batch;
        return this.scheduleRetry();
      }
      batch = [...source.log.entriesBetween(this.delivered, first - 1).map(fromRow), ...batch];
    }
    this.emitOrdered(batch);
  }

  /**
   * PostgreSQL: what follows on from the last seq delivered goes out now; anything past a gap waits for
   * the chain (the gap's read, after what is queued already), so nothing overtakes an earlier seq.
   */
  private deliverAfterLog(source: Extract<BusLog, { kind: 'postgres' }>, items: readonly CommittedChange[]) {
    const fresh = items.filter((item) => item.change.seq > this.delivered);
    if (!fresh.length) return;
    if (fresh[0]!.change.seq === this.delivered + 1) return this.emitOrdered(fresh);
    void this.enqueue(async () => {
      const pending = fresh.filter((item) => item.change.seq > this.delivered);
      if (!pending.length) return;
      const first = pending[0]!.change.seq;
      if (first <= this.delivered + 1) return this.emitOrdered(pending);
      const missed = await source.log.entriesBetween(this.delivered, first - 1);
      this.emitOrdered([...missed.map(fromRow), ...pending]);
    });
  }

  /** Runs `work` after the gap fills queued before it; a failure is reported, the chain goes on. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await work();
      } catch (err) {
        this.options.onError(err);
      }
    });
    this.chain = run;
    return run;
  }

  /** Delivers `batch` (in seq order) without what was delivered already, each seq once. */
  private emitOrdered(batch: readonly CommittedChange[]): void {
    const ordered: CommittedChange[] = [];
    for (const item of batch) {
      if (item.change.seq <= (ordered[ordered.length - 1]?.change.seq ?? this.delivered)) continue;
      ordered.push(item);
    }
    if (!ordered.length) return;
    this.delivered = ordered[ordered.length - 1]!.change.seq;
    this.listeners.call(ordered);
  }

  private scheduleRetry(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.deliver([]);
    }, 5);
    this.retry.unref();
  }

  /** SQLite: changes committed that never arrived, read from the log at once (later, inside a transaction). */
  private checkGap(source: Extract<BusLog, { kind: 'sqlite' }>): void {
    if (source.sqlite.inTransaction) return this.scheduleRetry();
    try {
      const latest = source.log.maxSeq();
      if (latest <= this.delivered) return;
      this.deliver(source.log.entriesBetween(this.delivered, latest).map(fromRow));
    } catch (err) {
      this.options.onError(err);
    }
  }
}

/** The first line of a contact change on the `ephemeral` channel (a frame's is its JSON target, `{…}`). */
const CONTACTS_HEAD = 'contacts';

/**
 * Ephemeral frames across nodes: delivered here at once, and published as `{u, a, x}` (users, audience,
 * except) on one line and the frame's json on the next; every other node delivers to its own connections.
 * Contact changes (a block, an unblock, an unfriend) share the channel, so they stay in order with the
 * frames this node publishes: `contacts` on one line, the change's json on the next, checked against its
 * schema on arrival.
 */
export class RedisEphemeralBus implements EphemeralBus {
  private readonly listeners: Listeners<[EphemeralTarget, string]>;
  private readonly contactListeners: Listeners<[ContactChange]>;

  constructor(
    private readonly link: RedisLink,
    private readonly onError: (err: unknown) => void,
  ) {
    this.listeners = new Listeners(onError);
    this.contactListeners = new Listeners(onError);
    link.listen('ephemeral', (body) => {
      const cut = body.indexOf('\n');
      try {
        const head = body.slice(0, cut);
        if (head === CONTACTS_HEAD) return this.receiveContacts(body.slice(cut + 1));
        const target = JSON.parse(head) as { u?: string[]; a?: Audience; x?: string };
        this.listeners.call(
          { users: target.u, audience: target.a, exceptUserId: target.x },
          body.slice(cut + 1),
        );
      } catch (err) {
        onError(err);
      }
    });
  }

  publish(target: EphemeralTarget, frame: EphemeralFrame): void {
    const json = JSON.stringify(frame);
    // An iterable may be read once only: both deliveries need it.
    const users = target.users ? [...target.users] : undefined;
    this.listeners.call({ ...target, users }, json);
    const head = JSON.stringify({ u: users, a: target.audience, x: target.exceptUserId });
    this.link.publish('ephemeral', `${head}\n${json}`);
  }

  subscribe(listener: (target: EphemeralTarget, json: string) => void): () => void {
    return this.listeners.add(listener);
  }

  publishContacts(change: ContactChange): void {
    this.contactListeners.call(change);
    this.link.publish('ephemeral', `${CONTACTS_HEAD}\n${JSON.stringify(change)}`);
  }

  subscribeContacts(listener: (change: ContactChange) => void): () => void {
    return this.contactListeners.add(listener);
  }

  /** Another node's contact change: internal, but still untrusted text until its schema says otherwise. */
  private receiveContacts(json: string): void {
    const parsed = contactChangeSchema.safeParse(JSON.parse(json));
    if (!parsed.success)
      return this.onError(new Error(`malformed contact change from Redis: ${parsed.error.message}`));
    this.contactListeners.call(parsed.data);
  }
}

/** Sessions whose existence one query checks. */
const REVOCATION_CHECK_CHUNK = 500;

/**
 * Revokes this node's sockets at once and tells the other nodes to revoke theirs. Pub/sub is at most once:
 * a node whose subscriber was reconnecting, or a publisher that could not reach Redis, misses the message.
 * So each node also asks the database which of its sockets' sessions still exist (a revocation always
 * deletes the session) every `checkEveryMs` and on every reconnect to Redis, and revokes the rest: a logout,
 * reset or suspension whose message was lost closes the sockets within that time.
 */
export function redisLiveSockets(
  link: RedisLink,
  options: {
    /** Which of `sessionIds` are still stored. */
    existing(sessionIds: readonly string[]): Promise<ReadonlySet<string>>;
    checkEveryMs: number;
    /** Closing a revoked socket threw. */
    onError(err: unknown): void;
    /** The check could not read the database (it runs again on the next tick). */
    onCheckError(err: unknown): void;
  },
): LiveSockets & { close(): void } {
  const local = createLiveSockets(options.onError);
  link.listen('revoke', (body) => {
    const id = body.slice(2);
    if (body.startsWith('s:')) local.revokeSession(id);
    else if (body.startsWith('u:')) local.revokeUser(id);
  });
  let checking: Promise<void> | undefined;
  const check = async () => {
    const ids = local.sessionIds();
    for (let i = 0; i < ids.length; i += REVOCATION_CHECK_CHUNK) {
      const chunk = ids.slice(i, i + REVOCATION_CHECK_CHUNK);
      const existing = await options.existing(chunk);
      for (const id of chunk) if (!existing.has(id)) local.revokeSession(id);
    }
  };
  const checkNow = () => {
    checking ??= check()
      .catch(options.onCheckError)
      .finally(() => (checking = undefined));
  };
  const timer = setInterval(checkNow, options.checkEveryMs);
  timer.unref();
  link.onReconnect(checkNow);
  return {
    track: (sessionId, socket) => local.track(sessionId, socket),
    revokeSession(sessionId) {
      local.revokeSession(sessionId);
      link.publish('revoke', `s:${sessionId}`);
    },
    revokeUser(userId) {
      local.revokeUser(userId);
      link.publish('revoke', `u:${userId}`);
    },
    close: () => clearInterval(timer),
  };
}
