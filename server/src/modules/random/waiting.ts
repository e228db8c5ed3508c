import type { Redis } from 'ioredis';
import { randomKindSchema, type RandomKind } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import type { JoinInput, Match, QueueEvents, RandomQueues, Seeker } from './matchmaker';

/**
 * Who waits in which queue, for the counts route of every node (issue 14): the queues run on the node that
 * coordinates random talk only, so it copies each wait's kind into one Redis hash (`userId → kind`) that
 * any node reads. Writes go out in order on one connection, without waiting: the count is a hint, and each
 * coordinator starts by clearing what the one before left there.
 */
export class RedisWaiting {
  constructor(
    private readonly client: Redis,
    private readonly key: string,
    private readonly log: Logger,
  ) {}

  set(userId: string, kind: RandomKind): void {
    this.client.hset(this.key, userId, kind).catch((err: unknown) => this.failed(err));
  }

  drop(...userIds: string[]): void {
    if (userIds.length) this.client.hdel(this.key, ...userIds).catch((err: unknown) => this.failed(err));
  }

  clear(): void {
    this.client.del(this.key).catch((err: unknown) => this.failed(err));
  }

  /** Every wait of the deployment: the kind of queue by user. */
  async kinds(): Promise<Map<string, RandomKind>> {
    const kinds = new Map<string, RandomKind>();
    for (const [userId, raw] of Object.entries(await this.client.hgetall(this.key))) {
      const kind = randomKindSchema.safeParse(raw);
      if (kind.success) kinds.set(userId, kind.data);
    }
    return kinds;
  }

  private failed(err: unknown): void {
    this.log.warn({ err }, 'random talk: the shared waiting list was not updated');
  }
}

/** The coordinator's queues, each change copied to the shared waiting list. */
export class MirroredQueues<H> implements RandomQueues<H> {
  constructor(
    private readonly queues: RandomQueues<H>,
    private readonly shared: RedisWaiting,
  ) {}

  join(input: JoinInput<H>) {
    const joined = this.queues.join(input);
    if (joined.replaced) this.shared.drop(joined.replaced.userId);
    if (joined.match) this.matched([joined.match]);
    else this.shared.set(joined.seeker.userId, joined.seeker.kind);
    return joined;
  }

  leave(userId: string): Seeker<H> | undefined {
    const left = this.queues.leave(userId);
    if (left) this.shared.drop(userId);
    return left;
  }

  waiting(userId: string): Seeker<H> | undefined {
    return this.queues.waiting(userId);
  }

  all(): Seeker<H>[] {
    return this.queues.all();
  }

  separate(a: string, b: string): void {
    this.queues.separate(a, b);
  }

  tick(): QueueEvents<H> {
    const events = this.queues.tick();
    this.matched(events.matches);
    return events;
  }

  size(kind?: RandomKind): number {
    return this.queues.size(kind);
  }

  /**
   * Not the shared list: a node that lost its lease may only notice once the next coordinator has begun
   * writing there. The next coordinator clears it as it starts (RedisWaiting.clear).
   */
  clear(): void {
    this.queues.clear();
  }

  private matched(matches: readonly Match<H>[]): void {
    this.shared.drop(...matches.flatMap((m) => [m.first.userId, m.second.userId]));
  }
}
