import { z } from 'zod';
import { clientFrameSchema, serverFrameSchema, type ServerFrame } from '@campus/protocol';
import type { AppDeps } from '../deps';
import type { Logger } from '../lib/logger';
import { Term, type Handover, type SessionRef } from './handover';
import { Lease, LEASE_TIMINGS, type LeaseTimings } from './lease';
import type { RedisLink } from './redis-bus';
import { nodeAlive } from './redis-presence';
import type { FrameHandlers, Session, SessionFrame } from './registry';
import { RemoteSession } from './remote-session';
import { RecentFrames, RollCall } from './roll-call';

/**
 * What a feature with cross-user live state (random talk's queues and rooms, the calls) hands its
 * coordinator: its frame handlers and hooks, written for one process, plus how its state moves from one
 * coordinating node to the next.
 */
export interface CoordinatedCore<F extends SessionFrame> {
  readonly frames: FrameHandlers<F>;
  /** A connection closed (on any node). */
  closed(session: Session): void;
  /** Internal events with string arguments (a block between two users, an access change), by name. */
  readonly events: Readonly<Record<string, (...args: string[]) => void>>;
  /**
   * This node no longer coordinates (its lease lapsed, or it hands over as it stops): it forgets what it
   * held, timers included, without ending any of it: the state is in Redis and the next coordinator carries
   * it on. Must be harmless twice.
   */
  stepDown(): void;
  /**
   * This node now coordinates (with REDIS_URL): it loads what the previous coordinator kept through
   * `handover` and re-arms its timers. Frames and closes wait until it resolves.
   */
  lead?(handover: Handover): Promise<void>;
  /** The names of the hashes the feature keeps in Redis (`Handover` writes nothing else). */
  readonly stateKeys?: readonly string[];
  /**
   * Frame types that do no harm when applied twice: a node that forwarded one lately sends it again to a
   * new coordinator, since the old one may have died with it (a `call:resume` right after a crash).
   */
  readonly replayable?: readonly string[];
  /** Of those, whether this one may go again (by default every one): a text line only with its number. */
  replays?(frame: F): boolean;
  /** Resolves once work in flight that writes state (a call's log) is done: awaited before handing over. */
  settled?(): Promise<void>;
}

export interface CoordinatorCluster {
  link: RedisLink;
  /** REDIS_PREFIX: the lease's key is `<prefix>:lease:<channel>`. */
  prefix: string;
  log: Logger;
  lease?: LeaseTimings;
  /** How often the coordinator asks the other nodes which of their connections it holds are still open. */
  rollCallMs: number;
}

/** The deployment's Redis when REDIS_URL is set: nothing to coordinate on a single node. */
export function clusterOf(deps: Pick<AppDeps, 'redis' | 'config' | 'log'>): CoordinatorCluster | undefined {
  const { redis, config, log } = deps;
  return (
    redis &&
    config.redis && { link: redis, prefix: config.redis.prefix, log, rollCallMs: config.redis.rollCallMs }
  );
}

/**
 * How long a feature's state outlives the last coordinator (the lease renews it while there is one): a
 * deployment stopped for less than this carries its calls and rooms on, and logs those that ended meanwhile.
 */
export const STATE_TTL_MS = 24 * 60 * 60_000;

const nodeId = z.string().min(1).max(64);
const connIds = z.array(z.string().max(16)).max(100_000);

/** Internal messages on the feature's channel; they come from Redis only, and are parsed all the same. */
const messageSchema = z.discriminatedUnion('k', [
  // A client frame a node received, for the coordinator.
  z.object({ k: z.literal('in'), node: z.string(), conn: z.string(), user: z.string(), frame: z.unknown() }),
  // A connection of that node closed.
  z.object({ k: z.literal('closed'), node: z.string(), conn: z.string(), user: z.string() }),
  z.object({ k: z.literal('event'), name: z.string(), args: z.array(z.string()) }),
  // A frame from the coordinator for one connection of `node` (signed in as `user`).
  z.object({
    k: z.literal('out'),
    node: z.string(),
    conn: z.string(),
    user: z.string().optional(),
    frame: z.unknown(),
  }),
  // The coordinator let go of its lease (it is stopping): the others try to take it now.
  z.object({ k: z.literal('released') }),
  // A new coordinator loaded the state, or the coordinator checks (`check`) the other nodes' connections it
  // holds: which of these (by node) are still open? After a takeover, the nodes also replay recent frames.
  z.object({
    k: z.literal('roll'),
    node: nodeId,
    conns: z.record(nodeId, connIds),
    check: z.boolean().optional(),
  }),
  // A node's answer to the roll call of `to`: its connections among those asked that are open.
  z.object({ k: z.literal('here'), to: nodeId, node: nodeId, conns: connIds }),
]);
type Message = z.infer<typeof messageSchema>;
type Handler<F> = (session: Session, frame: F) => void | Promise<void>;

/**
 * Runs a feature's live state on exactly one node of the deployment (issue 14). Without REDIS_URL it is
 * the feature itself, in this process, as before. With it, the node holding the feature's lease (one Redis
 * key, lease.ts) runs the feature; every other node forwards its clients' frames, their connections'
 * closes and the feature's events on the feature's channel, and the coordinator answers a connection of
 * another node through a `RemoteSession` (a frame back on the channel, which that node sends). Frames to a
 * user's every device already cross nodes (the ephemeral bus). One coordinator means one queue and one
 * registry for the whole deployment: a match or a call is decided by a single process, atomically, as on
 * one node. Which connection sent what, and as whom, is decided on the node holding the socket (the
 * session's user); what the state allows, on the coordinator.
 *
 * Handover: the coordinator keeps what must outlive it in Redis (`Handover`, written on transitions). The
 * next one, as it takes the lease (released by a stopping node, or expired after a crash), loads it before
 * it runs any frame, then holds a roll call: every node says which of the loaded connections it still has
 * (the others, a dead node's, close as if they had), and sends again the `replayable` frames it forwarded
 * lately, which the old coordinator may have died with.
 */
export class Coordinator<F extends SessionFrame> {
  readonly frames: FrameHandlers<F>;
  private readonly lease: Lease | undefined;
  /** Other nodes' connections, one object each, so the feature's `holder === session` checks hold. */
  private readonly remotes = new Map<string, RemoteSession>();
  /** What each of those is called in stored state. */
  private readonly refs = new WeakMap<Session, SessionRef>();
  /** This node's connections that forwarded a frame or were stored, by the id the coordinator knows them by. */
  private readonly locals = new Map<string, Session>();
  private readonly ids = new WeakMap<Session, string>();
  private nextId = 0;
  private readonly stateKeys: readonly string[];
  private readonly replayable: ReadonlySet<string>;
  private term: Term | undefined;
  /** While the state taken over loads: what would run now waits for it, in order. */
  private loading: Promise<void> | undefined;
  /** Stopping: the lease is still this node's for a moment, but it acts no more. */
  private handingOver = false;
  private readonly recent: RecentFrames<F>;
  /** The roll call waiting for answers (the takeover's, or a check's), if any. */
  private roll: RollCall | undefined;
  private readonly checkTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly channel: 'calls' | 'random',
    private readonly core: CoordinatedCore<F>,
    private readonly cluster?: CoordinatorCluster,
  ) {
    this.stateKeys = core.stateKeys ?? [];
    this.replayable = new Set(core.replayable ?? []);
    this.recent = new RecentFrames<F>(2 * this.timings.ttlMs);
    if (!cluster) {
      this.frames = core.frames;
      return;
    }
    const { link, prefix, log } = cluster;
    this.lease = new Lease(
      link.client,
      `${prefix}:lease:${channel}`,
      link.nodeId,
      {
        acquired: () => {
          log.info({ channel }, 'coordinating');
          this.takeOver();
        },
        lost: () => {
          log.warn({ channel }, 'no longer coordinating');
          this.stepDown();
        },
      },
      log,
      this.timings,
      { keys: this.stateKeys.map((name) => this.keyOf(name)), ttlMs: STATE_TTL_MS },
    );
    // Every frame type the feature answers goes through the routing.
    const routed: Record<string, Handler<F>> = {};
    for (const type of Object.keys(core.frames))
      routed[type] = (session, frame) => this.route(session, frame);
    this.frames = routed as unknown as FrameHandlers<F>;
    link.listen(channel, (body) => this.receive(body));
    this.lease.start();
    this.checkTimer = setInterval(() => this.check(), cluster.rollCallMs);
    this.checkTimer.unref();
  }

  /** This node runs the feature now. */
  get coordinating(): boolean {
    return !this.lease || (this.lease.held && !this.handingOver);
  }

  closed(session: Session): void {
    const id = this.ids.get(session);
    if (id !== undefined) this.locals.delete(id);
    const tell = () => {
      if (this.coordinating) return this.core.closed(session);
      // A connection that never sent the feature a frame holds nothing there, but may be the user's last one.
      this.publish({
        k: 'closed',
        node: this.cluster!.link.nodeId,
        conn: id ?? this.idOf(session),
        user: session.userId,
      });
    };
    void this.whenLoaded(tell);
  }

  event(name: string, ...args: string[]): void {
    void this.whenLoaded(() => {
      if (this.coordinating) return this.core.events[name]?.(...args);
      this.publish({ k: 'event', name, args });
    });
  }

  /**
   * Stops taking part. A coordinator hands over: it acts no more, lets the work in flight finish and its
   * state reach Redis, then lets go of its lease (another node takes it at once and carries on).
   */
  async close(): Promise<void> {
    if (!this.lease) return;
    clearInterval(this.checkTimer);
    if (this.lease.held) {
      this.handingOver = true;
      const term = this.term;
      this.core.stepDown();
      await this.core.settled?.();
      await term?.writes.flush();
      this.stepDown();
    }
    if (await this.lease.stop()) this.publish({ k: 'released' });
  }

  private get timings(): LeaseTimings {
    return this.cluster?.lease ?? LEASE_TIMINGS;
  }

  private keyOf(name: string): string {
    return `${this.cluster!.prefix}:${this.channel}:${name}`;
  }

  private takeOver(): void {
    const { log } = this.cluster!;
    const term: Term = new Term(this.lease!, this.stateKeys, {
      ref: (session) => this.refOf(session),
      session: (ref, user): Session | undefined => this.sessionOf(term, ref, user),
    });
    this.term = term;
    const lead = this.core.lead?.(term) ?? Promise.resolve();
    this.loading = lead
      .catch((err: unknown) =>
        log.error({ err, channel: this.channel }, 'the state handed over did not load'),
      )
      .then(() => {
        if (this.term !== term) return;
        this.loading = undefined;
        this.rollCall(term);
      });
  }

  private stepDown(): void {
    this.term?.writes.end();
    this.term?.roll.end();
    this.roll?.end();
    this.roll = undefined;
    this.term = undefined;
    this.loading = undefined;
    this.core.stepDown();
    for (const remote of this.remotes.values()) remote.closed = true;
    this.remotes.clear();
  }

  /** Runs `fn` now, or once the state taken over is loaded (errors are logged: nobody awaits it then). */
  private whenLoaded(fn: () => void | Promise<void>): void | Promise<void> {
    if (!this.loading) return fn();
    return this.loading.then(fn).catch((err: unknown) => {
      this.cluster!.log.error({ err, channel: this.channel }, 'coordinated work failed');
    });
  }

  private route(session: Session, frame: F): void | Promise<void> {
    const run = () => (this.coordinating ? this.dispatch(session, frame) : this.forward(session, frame));
    if (this.coordinating) return this.whenLoaded(run);
    // Nobody holds the lease at the last look (the deployment's first frame, a coordinator that stopped):
    // this node tries to take it first, so the frame is not sent to nobody.
    if (this.lease!.vacant) return this.lease!.tick().then(() => this.whenLoaded(run));
    this.forward(session, frame);
  }

  private forward(session: Session, frame: F): void {
    const node = this.cluster!.link.nodeId;
    const conn = this.idOf(session);
    if (this.replayable.has(frame.type) && (this.core.replays?.(frame) ?? true))
      this.recent.remember(conn, frame);
    this.publish({ k: 'in', node, conn, user: session.userId, frame });
  }

  private dispatch(session: Session, frame: F): void | Promise<void> {
    // The table has one handler per frame type of F: the frame's own type picks the matching one.
    const handler = this.core.frames[frame.type as F['type']] as unknown as Handler<F>;
    return handler(session, frame);
  }

  private idOf(session: Session): string {
    let id = this.ids.get(session);
    if (id === undefined) {
      id = String(++this.nextId);
      this.ids.set(session, id);
    }
    if (!session.closed) this.locals.set(id, session);
    return id;
  }

  private refOf(session: Session): SessionRef {
    return this.refs.get(session) ?? { node: this.cluster!.link.nodeId, conn: this.idOf(session) };
  }

  private sessionOf(term: Term, ref: SessionRef, userId: string): Session | undefined {
    if (ref.node === this.cluster!.link.nodeId) {
      const local = this.locals.get(ref.conn);
      return local && !local.closed && local.userId === userId ? local : undefined;
    }
    term.roll.name(ref.node, ref.conn);
    return this.remote(ref.node, ref.conn, userId);
  }

  // ---- after a takeover

  /** Sends the kept frames again, to whoever coordinates now (this node, or through the channel). */
  private replay(): void {
    for (const { conn, frame } of this.recent.take()) {
      const session = this.locals.get(conn);
      // A connection closed since holds nothing: the roll call finds it gone.
      if (!session || session.closed) continue;
      try {
        const done = this.route(session, frame);
        if (done) done.catch((err: unknown) => this.cluster!.log.error({ err }, 'replayed frame failed'));
      } catch (err) {
        this.cluster!.log.error({ err, type: frame.type }, 'replayed frame failed');
      }
    }
  }

  /**
   * Asks every node which of the other nodes' connections the loaded state names are still open
   * (roll-call.ts); every node also sends again what it forwarded lately.
   */
  private rollCall(term: Term): void {
    this.roll = term.roll;
    const conns = term.roll.call();
    this.publish({ k: 'roll', node: this.cluster!.link.nodeId, conns });
    this.replay();
    term.roll.expireAfter(2 * this.timings.renewEveryMs, (node, conn) => {
      if (this.term === term) this.gone(node, conn);
    });
  }

  /**
   * Every `rollCallMs` while coordinating: a roll call about the other nodes' connections this node holds.
   * A node that died (a crash, its Redis link gone) never reports its connections closed, and a `closed`
   * message is lost when Redis blinks: without this, a dead student's wait would be matched and their
   * call would keep both sides busy for as long as this node coordinates.
   */
  private check(): void {
    const term = this.term;
    if (!term || !this.coordinating || this.loading || this.roll?.pending || !this.remotes.size) return;
    const roll = new RollCall();
    for (const key of this.remotes.keys()) {
      const cut = key.indexOf('\n');
      roll.name(key.slice(0, cut), key.slice(cut + 1));
    }
    this.roll = roll;
    this.publish({ k: 'roll', node: this.cluster!.link.nodeId, conns: roll.call(), check: true });
    // A node that answered left out what closed (gone at once, in `here`). One that did not answer is dead
    // only if its presence lease ran out too: a lost answer must not end the calls of a healthy node.
    roll.silentAfter(2 * this.timings.renewEveryMs, (node, conns) => {
      nodeAlive(this.cluster!.link.client, this.cluster!.prefix, node)
        .then((alive) => {
          if (alive || this.term !== term) return;
          for (const conn of conns) this.gone(node, conn);
        })
        .catch((err: unknown) => this.cluster!.log.error({ err, channel: this.channel }, 'roll call failed'));
    });
  }

  /** Another node's connection is gone: closed for the feature, as that node would have reported it. */
  private gone(node: string, conn: string): void {
    const key = `${node}\n${conn}`;
    const remote = this.remotes.get(key);
    if (!remote) return;
    this.remotes.delete(key);
    remote.closed = true;
    this.core.closed(remote);
  }

  // ---- the channel

  private publish(message: Message): void {
    this.cluster!.link.publish(this.channel, JSON.stringify(message));
  }

  private receive(body: string): void {
    let message: Message;
    try {
      message = messageSchema.parse(JSON.parse(body));
    } catch (err) {
      return this.cluster!.log.warn({ err, channel: this.channel }, 'bad coordination message');
    }
    try {
      this.handle(message);
    } catch (err) {
      this.cluster!.log.error({ err, channel: this.channel }, 'coordination message failed');
    }
  }

  private handle(message: Message): void {
    const { link, log } = this.cluster!;
    switch (message.k) {
      case 'in': {
        if (!this.coordinating) return;
        const frame = this.frameOf(message.frame);
        if (!frame) return log.warn({ channel: this.channel }, 'bad forwarded frame');
        const done = this.whenLoaded(() => {
          if (this.coordinating)
            return this.dispatch(this.remote(message.node, message.conn, message.user), frame);
        });
        if (done)
          done.catch((err: unknown) => log.error({ err, type: frame.type }, 'forwarded frame failed'));
        return;
      }
      case 'closed':
        if (this.coordinating)
          void this.whenLoaded(() => {
            if (!this.coordinating) return;
            const key = `${message.node}\n${message.conn}`;
            const remote = this.remotes.get(key) ?? this.remote(message.node, message.conn, message.user);
            this.remotes.delete(key);
            remote.closed = true;
            this.core.closed(remote);
          });
        return;
      case 'event':
        if (this.coordinating)
          void this.whenLoaded(() => {
            if (this.coordinating) this.core.events[message.name]?.(...message.args);
          });
        return;
      case 'out': {
        if (message.node !== link.nodeId) return;
        const session = this.locals.get(message.conn);
        const user = message.user ?? session?.userId;
        // Checked, then sent as the coordinator built it (a parse would drop what the schema does not name).
        if (
          session &&
          !session.closed &&
          session.userId === user &&
          serverFrameSchema.safeParse(message.frame).success
        )
          session.send(message.frame as ServerFrame);
        return;
      }
      case 'released':
        this.lease!.forgetHolder();
        void this.lease!.tick();
        return;
      case 'roll': {
        const asked = message.conns[link.nodeId] ?? [];
        const open = asked.filter((conn) => this.locals.get(conn)?.closed === false);
        if (asked.length) this.publish({ k: 'here', to: message.node, node: link.nodeId, conns: open });
        // A new coordinator may have lost what the old one died with; a check's coordinator has it all.
        if (!message.check) this.replay();
        return;
      }
      case 'here':
        if (message.to === link.nodeId && this.coordinating)
          this.roll?.answered(message.node, message.conns, (node, conn) => this.gone(node, conn));
        return;
    }
  }

  /** A forwarded frame, checked again: a client frame the feature answers. */
  private frameOf(raw: unknown): F | undefined {
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success || !Object.hasOwn(this.core.frames, parsed.data.type)) return undefined;
    return parsed.data as F;
  }

  private remote(node: string, conn: string, userId: string): RemoteSession {
    const key = `${node}\n${conn}`;
    let remote = this.remotes.get(key);
    if (!remote || remote.userId !== userId) {
      remote = new RemoteSession(userId, (frame: ServerFrame) =>
        this.publish({ k: 'out', node, conn, user: userId, frame }),
      );
      this.remotes.set(key, remote);
      this.refs.set(remote, { node, conn });
    }
    return remote;
  }
}
