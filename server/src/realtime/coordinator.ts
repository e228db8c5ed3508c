import { z } from 'zod';
import { clientFrameSchema, serverFrameSchema, type ServerFrame } from '@campus/protocol';
import type { AppDeps } from '../deps';
import type { Logger } from '../lib/logger';
import { Lease, LEASE_TIMINGS, type LeaseTimings } from './lease';
import type { RedisLink } from './redis-bus';
import type { FrameHandlers, Session, SessionFrame } from './registry';
import { RemoteSession } from './remote-session';

/**
 * What a feature with cross-user live state (random talk's queues and rooms, the calls) hands its
 * coordinator: its frame handlers and hooks, written for one process, plus what to do when this node stops
 * being the one that runs them.
 */
export interface CoordinatedCore<F extends SessionFrame> {
  readonly frames: FrameHandlers<F>;
  /** A connection closed (on any node). */
  closed(session: Session): void;
  /** Internal events with string arguments (a block between two users, an access change), by name. */
  readonly events: Readonly<Record<string, (...args: string[]) => void>>;
  /**
   * This node no longer coordinates (its lease lapsed, or it is stopping while other nodes go on): what it
   * held ends as its clients would see a lost server, and it keeps nothing (the next coordinator starts
   * empty).
   */
  stepDown(): void;
  /** This node now coordinates (with REDIS_URL): what the previous coordinator left in Redis is reset. */
  lead?(): void;
}

export interface CoordinatorCluster {
  link: RedisLink;
  /** REDIS_PREFIX: the lease's key is `<prefix>:lease:<channel>`. */
  prefix: string;
  log: Logger;
  lease?: LeaseTimings;
}

/** The deployment's Redis when REDIS_URL is set: nothing to coordinate on a single node. */
export function clusterOf(deps: Pick<AppDeps, 'redis' | 'config' | 'log'>): CoordinatorCluster | undefined {
  const { redis, config, log } = deps;
  return redis && config.redis && { link: redis, prefix: config.redis.prefix, log };
}

/** Internal messages on the feature's channel; they come from Redis only, and are parsed all the same. */
const messageSchema = z.discriminatedUnion('k', [
  // A client frame a node received, for the coordinator.
  z.object({ k: z.literal('in'), node: z.string(), conn: z.string(), user: z.string(), frame: z.unknown() }),
  // A connection of that node closed.
  z.object({ k: z.literal('closed'), node: z.string(), conn: z.string(), user: z.string() }),
  z.object({ k: z.literal('event'), name: z.string(), args: z.array(z.string()) }),
  // A frame from the coordinator for one connection of `node`.
  z.object({ k: z.literal('out'), node: z.string(), conn: z.string(), frame: z.unknown() }),
  // The coordinator let go of its lease (it is stopping): the others try to take it now.
  z.object({ k: z.literal('released') }),
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
 */
export class Coordinator<F extends SessionFrame> {
  readonly frames: FrameHandlers<F>;
  private readonly lease: Lease | undefined;
  /** Other nodes' connections, one object each, so the feature's `holder === session` checks hold. */
  private readonly remotes = new Map<string, RemoteSession>();
  /** This node's connections that forwarded a frame, by the id the coordinator knows them by. */
  private readonly locals = new Map<string, Session>();
  private readonly ids = new WeakMap<Session, string>();
  private nextId = 0;

  constructor(
    private readonly channel: 'calls' | 'random',
    private readonly core: CoordinatedCore<F>,
    private readonly cluster?: CoordinatorCluster,
  ) {
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
          core.lead?.();
        },
        lost: () => {
          log.warn({ channel }, 'no longer coordinating');
          this.stepDown();
        },
      },
      log,
      cluster.lease ?? LEASE_TIMINGS,
    );
    // Every frame type the feature answers goes through the routing.
    const routed: Record<string, Handler<F>> = {};
    for (const type of Object.keys(core.frames))
      routed[type] = (session, frame) => this.route(session, frame);
    this.frames = routed as unknown as FrameHandlers<F>;
    link.listen(channel, (body) => this.receive(body));
    this.lease.start();
  }

  /** This node runs the feature now. */
  get coordinating(): boolean {
    return !this.lease || this.lease.held;
  }

  closed(session: Session): void {
    const id = this.ids.get(session);
    if (id !== undefined) this.locals.delete(id);
    if (this.coordinating) return this.core.closed(session);
    // A connection that never sent the feature a frame holds nothing there, but may be the user's last one.
    this.publish({
      k: 'closed',
      node: this.cluster!.link.nodeId,
      conn: id ?? this.idOf(session),
      user: session.userId,
    });
  }

  event(name: string, ...args: string[]): void {
    if (this.coordinating) return this.core.events[name]?.(...args);
    this.publish({ k: 'event', name, args });
  }

  /** Stops taking part; the coordinator lets go of its lease after telling its clients (stepDown). */
  async close(): Promise<void> {
    if (!this.lease) return;
    if (this.lease.held) this.stepDown();
    if (await this.lease.stop()) this.publish({ k: 'released' });
  }

  private stepDown(): void {
    this.core.stepDown();
    for (const remote of this.remotes.values()) remote.closed = true;
    this.remotes.clear();
  }

  private route(session: Session, frame: F): void | Promise<void> {
    if (this.coordinating) return this.dispatch(session, frame);
    // Nobody holds the lease at the last look (the deployment's first frame, a coordinator that stopped):
    // this node tries to take it first, so the frame is not sent to nobody.
    if (this.lease!.vacant)
      return this.lease!.tick().then(() =>
        this.coordinating ? this.dispatch(session, frame) : this.forward(session, frame),
      );
    this.forward(session, frame);
  }

  private forward(session: Session, frame: F): void {
    const node = this.cluster!.link.nodeId;
    this.publish({ k: 'in', node, conn: this.idOf(session), user: session.userId, frame });
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
        const done = this.dispatch(this.remote(message.node, message.conn, message.user), frame);
        if (done)
          done.catch((err: unknown) => log.error({ err, type: frame.type }, 'forwarded frame failed'));
        return;
      }
      case 'closed': {
        if (!this.coordinating) return;
        const key = `${message.node}\n${message.conn}`;
        const remote = this.remotes.get(key) ?? this.remote(message.node, message.conn, message.user);
        this.remotes.delete(key);
        remote.closed = true;
        return this.core.closed(remote);
      }
      case 'event':
        if (this.coordinating) this.core.events[message.name]?.(...message.args);
        return;
      case 'out': {
        if (message.node !== link.nodeId) return;
        const session = this.locals.get(message.conn);
        // Checked, then sent as the coordinator built it (a parse would drop what the schema does not name).
        if (session && !session.closed && serverFrameSchema.safeParse(message.frame).success)
          session.send(message.frame as ServerFrame);
        return;
      }
      case 'released':
        this.lease!.forgetHolder();
        void this.lease!.tick();
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
        this.publish({ k: 'out', node, conn, frame }),
      );
      this.remotes.set(key, remote);
    }
    return remote;
  }
}
